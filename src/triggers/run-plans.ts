// Neutral events → RunPlans. Pure functions over what the triggers read of an event, so the rules
// (which branch, which base, where the result goes) are tested without a forge.
import type { PullRequestInfo } from '../forge/forge.ts';
import type { RunPlan } from '../forge/run-plan.ts';
import type { RepositoryRef, Subject } from './forge-events.ts';

interface Base {
  repository: RepositoryRef;
  actor: string | null;
  deliveryId: string | null;
}

/** What every plan for a pull request says of it and of who asked. */
function pullRequestPlan(input: Base, pr: PullRequestInfo) {
  return {
    owner: input.repository.owner,
    repo: input.repository.name,
    number: pr.number,
    isPullRequest: true,
    title: pr.title,
    actor: input.actor,
    deliveryId: input.deliveryId,
    pushUrl: input.repository.cloneUrl,
    ref: pr.headRef,
  };
}

/** A labeled or assigned issue, or `/fix` on an issue: work on the default branch, open a pull request into it. */
export function planForIssue(
  input: Base & { issue: Subject; kind: 'label' | 'assign' | 'command'; instructions: string; commentId: number | null },
): RunPlan {
  const { repository: r, issue } = input;
  return {
    kind: input.kind,
    owner: r.owner,
    repo: r.name,
    number: issue.number,
    isPullRequest: false,
    title: issue.title,
    actor: input.actor,
    deliveryId: input.deliveryId,
    goal: goalText(issue.title, issue.body),
    instructions: input.instructions,
    cloneUrl: r.cloneUrl,
    pushUrl: r.cloneUrl,
    ref: r.defaultBranch,
    sha: null,
    baseRef: null,
    target: { kind: 'pull-request', base: r.defaultBranch },
    commentId: input.commentId,
  };
}

/**
 * `/fix` on a pull request, or a review asking fixloop's own pull request for changes. On fixloop's own
 * branch the fix is a new commit there; on someone's branch it is a pull request into that branch; on
 * a fork (which fixloop cannot push to) a pull request into the base branch.
 */
export function planForPullRequest(
  input: Base & {
    pr: PullRequestInfo;
    kind: 'command' | 'review';
    instructions: string;
    commentId: number | null;
    branchPrefix: string;
  },
): RunPlan {
  const { repository: r, pr } = input;
  const own = !pr.fromFork && pr.headRef.startsWith(input.branchPrefix);
  return {
    ...pullRequestPlan(input, pr),
    kind: own ? 'review' : input.kind,
    goal: goalText(pr.title, pr.body),
    instructions: input.instructions,
    cloneUrl: pr.fromFork ? pr.headCloneUrl : r.cloneUrl,
    sha: pr.headSha,
    // On someone's pull request, its own diff is the best hint; on fixloop's branch the review says it.
    baseRef: own ? null : pr.baseRef,
    target: own
      ? { kind: 'push', branch: pr.headRef, pullRequest: pr.number }
      : pr.fromFork
        ? { kind: 'pull-request', base: pr.baseRef, note: 'fork' }
        : { kind: 'pull-request', base: pr.headRef },
    commentId: input.commentId,
  };
}

/** A failing check on a pull request's head: reproduce at that SHA, hint with the PR's diff. */
export function planForFailingCheck(
  input: Base & { pr: PullRequestInfo; checkName: string; sha: string; failedCommand?: string | null },
): RunPlan {
  const { repository: r, pr } = input;
  const step = input.failedCommand ? ` Its failing step runs \`${input.failedCommand}\`.` : '';
  return {
    ...pullRequestPlan(input, pr),
    kind: 'check',
    goal: `The check \`${input.checkName}\` failed on ${input.sha.slice(0, 12)} of pull request #${pr.number} (${pr.title}).${step}`,
    ...(input.failedCommand ? { failedCommand: input.failedCommand } : {}),
    instructions: '',
    cloneUrl: r.cloneUrl,
    sha: input.sha,
    baseRef: pr.baseRef,
    target: { kind: 'pull-request', base: pr.headRef },
    commentId: null,
  };
}

function goalText(title: string, body: string | null | undefined): string {
  return body?.trim() ? `${title}\n\n${body.trim()}` : title;
}
