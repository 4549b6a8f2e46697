// The forge port (docs/design.md §5): what the run and publication code need from a forge (GitHub, or
// another), and nothing of its API. One instance per repository; GitHub's is src/github/octokit-forge.ts.
// Every method fails with a ForgeError (src/core/forge-error.ts), whose code publication decides on.
import type { CloneAuth } from '../core/clone-auth.ts';
import type { Permission } from './permission.ts';

export interface PullRequestInfo {
  number: number;
  title: string;
  body: string;
  headRef: string;
  headSha: string;
  baseRef: string;
  /** The head lives in a fork: fixloop cannot push to it. */
  fromFork: boolean;
  /** Where the head commit can be fetched from (the fork's clone URL for a fork). */
  headCloneUrl: string;
  htmlUrl: string;
}

/**
 * How a run ends on the commit it worked on: a commit status of the forge (GitHub's check run).
 * `neutral`: verified on the exit code alone, nothing to fix, or a fix that a person should review.
 */
export interface StatusOutcome {
  conclusion: 'success' | 'failure' | 'neutral' | 'cancelled';
  title: string;
  summary: string;
}

export interface Forge {
  readonly owner: string;
  readonly repo: string;
  /** Credentials for git as an HTTP header (GitHub: a fresh installation token); fetched per use, never stored. */
  cloneAuth(): Promise<CloneAuth>;
  permission(user: string): Promise<Permission>;
  react(commentId: number, content: 'eyes'): Promise<void>;
  comment(issue: number, body: string): Promise<number>;
  updateComment(commentId: number, body: string): Promise<void>;
  /** The first comment on the issue whose body holds `marker`, newest pages last. */
  findComment(issue: number, marker: string): Promise<number | null>;
  addLabels(issue: number, labels: string[]): Promise<void>;
  pullRequest(number: number): Promise<PullRequestInfo>;
  openPullRequest(pr: {
    title: string;
    head: string;
    base: string;
    body: string;
    draft: boolean;
  }): Promise<{ number: number; htmlUrl: string }>;
  updatePullRequestBody(number: number, body: string): Promise<void>;
  /**
   * The command of the step that failed in a failing check, read from the forge's CI definition at
   * `sha` (GitHub: the failed job and step of a workflow run, and that step's `run:` in the workflow
   * file); null when it cannot say. `source`: the event's `FailingCheckEvent.source`, the adapter's own.
   */
  failingCommand?(source: string, sha: string): Promise<string | null>;
  /** A status "in progress" on the commit; its id is the forge's, opaque here. */
  startStatus(headSha: string, summary: string): Promise<string>;
  completeStatus(id: string, outcome: StatusOutcome): Promise<void>;
}
