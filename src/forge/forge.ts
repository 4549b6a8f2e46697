// The forge port (DESIGN.md §5): what the run and publication code need from GitHub, and nothing of
// Probot. One instance per repository; the Octokit implementation is in octokit-forge.ts.
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

export interface CheckRunOutput {
  conclusion: 'success' | 'failure' | 'neutral' | 'cancelled';
  title: string;
  summary: string;
}

export interface Forge {
  readonly owner: string;
  readonly repo: string;
  /** A fresh installation token as a git HTTP header; fetched per use, never stored. */
  cloneAuth(): Promise<CloneAuth>;
  permission(user: string): Promise<Permission>;
  react(commentId: number, content: 'eyes'): Promise<void>;
  comment(issue: number, body: string): Promise<number>;
  updateComment(commentId: number, body: string): Promise<void>;
  /** The first comment on the issue whose body holds `marker`, newest pages last. */
  findComment(issue: number, marker: string): Promise<number | null>;
  addLabels(issue: number, labels: string[]): Promise<void>;
  pullRequest(number: number): Promise<PullRequestInfo>;
  openPullRequest(pr: { title: string; head: string; base: string; body: string; draft: boolean }): Promise<{ number: number; htmlUrl: string }>;
  updatePullRequestBody(number: number, body: string): Promise<void>;
  startCheckRun(headSha: string, summary: string): Promise<number>;
  completeCheckRun(id: number, output: CheckRunOutput): Promise<void>;
}
