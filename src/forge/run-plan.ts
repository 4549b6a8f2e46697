// What a trigger asks for, before it becomes a FixRequest: where to work, what to say, and where
// the result goes. Built from neutral events by the handlers, carried by the job, read by publication.

/** Where a verified patch goes. */
export type PublishTarget =
  /** A new branch and a pull request into `base` (an issue's default branch, or a pull request's branch). */
  | { kind: 'pull-request'; base: string; note?: string }
  /** A new commit on an existing fixloop branch (iteration on its own pull request). */
  | { kind: 'push'; branch: string; pullRequest: number };

export interface RunPlan {
  kind: 'label' | 'assign' | 'command' | 'check' | 'review';
  owner: string;
  repo: string;
  /** The issue or pull request the run reports to. */
  number: number;
  isPullRequest: boolean;
  /** Title of the issue or pull request, for the branch's pull request title. */
  title: string;
  actor: string | null;
  deliveryId: string | null;
  goal: string;
  instructions: string;
  /** Where the code to work on is fetched from (a fork's URL for a fork's pull request). */
  cloneUrl: string;
  /** The repository fixloop pushes its branch to: always the one the event came from. */
  pushUrl: string;
  /** Branch to work on. */
  ref: string;
  /** Exact commit, when the event names one (a pull request's head, a failing check's SHA). */
  sha: string | null;
  /** A failing pull request's base: its diff is the localization hint. */
  baseRef: string | null;
  target: PublishTarget;
  /** The comment that asked, for the 👀 reaction. */
  commentId: number | null;
  /**
   * A failing check's failed step, as the forge's CI definition writes it (`npm run lint`): the run
   * makes it the gate when it is not the tests (FixRequest.failedCommand). Absent: unknown.
   */
  failedCommand?: string;
}

export function runKey(plan: Pick<RunPlan, 'owner' | 'repo' | 'number'>): string {
  return `${plan.owner}/${plan.repo}#${plan.number}`;
}
