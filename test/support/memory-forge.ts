// A stand-in forge built from the port alone (src/forge/forge.ts): issues, comments, labels, pull
// requests and commit statuses kept in memory, no HTTP, no Octokit. Git is real: `cloneAuth` gives
// a header that git ignores for a local path, so a plan's clone and push URLs can be a bare
// repository in a temp folder. Failures can be queued per method, to see publication decide on them.
import type { ForgeError } from '../../src/core/forge-error.ts';
import type { Forge, PullRequestInfo, StatusOutcome } from '../../src/forge/forge.ts';
import type { Permission } from '../../src/forge/permission.ts';

export interface OpenedPullRequest {
  number: number;
  title: string;
  head: string;
  base: string;
  body: string;
  draft: boolean;
  htmlUrl: string;
}

export interface MemoryStatus {
  sha: string;
  summary: string;
  outcome: StatusOutcome | null;
}

export interface MemoryForge extends Forge {
  comments: Map<number, { issue: number; body: string }>;
  reactions: number[];
  labels: Map<number, string[]>;
  opened: OpenedPullRequest[];
  statuses: Map<string, MemoryStatus>;
  /** Every call, by method name, in order (a failed one too). */
  calls: string[];
  /** Failures a method throws on its next calls, first queued first. */
  failNext(method: keyof Forge, ...errors: ForgeError[]): void;
}

export interface MemoryForgeOptions {
  owner?: string;
  repo?: string;
  /** Roles by user; anyone not named has none. */
  permissions?: Record<string, Permission>;
  /** The pull requests that exist before the test. */
  pullRequests?: PullRequestInfo[];
}

export function createMemoryForge(options: MemoryForgeOptions = {}): MemoryForge {
  const owner = options.owner ?? 'acme';
  const repo = options.repo ?? 'shop';
  const failures = new Map<string, ForgeError[]>();
  const known = new Map((options.pullRequests ?? []).map((pr) => [pr.number, pr]));
  let ids = 100;
  const state = {
    comments: new Map<number, { issue: number; body: string }>(),
    reactions: [] as number[],
    labels: new Map<number, string[]>(),
    opened: [] as OpenedPullRequest[],
    statuses: new Map<string, MemoryStatus>(),
    calls: [] as string[],
  };
  const call = async <T>(method: keyof Forge, work: () => T): Promise<T> => {
    state.calls.push(method);
    const failure = failures.get(method)?.shift();
    if (failure) throw failure;
    return work();
  };
  const forge: Forge = {
    owner,
    repo,
    cloneAuth: () => call('cloneAuth', () => ({ header: 'Authorization: Basic c3RhbmQtaW46Zm9yZ2U=' })),
    permission: (user) => call('permission', () => options.permissions?.[user] ?? 'none'),
    react: (commentId) => call('react', () => void state.reactions.push(commentId)),
    comment: (issue, body) => call('comment', () => (state.comments.set(++ids, { issue, body }), ids)),
    updateComment: (id, body) =>
      call('updateComment', () => {
        const found = state.comments.get(id);
        if (!found) throw new Error(`no comment ${id}`);
        found.body = body;
      }),
    findComment: (issue, marker) =>
      call('findComment', () => [...state.comments].find(([, c]) => c.issue === issue && c.body.includes(marker))?.[0] ?? null),
    addLabels: (issue, labels) =>
      call('addLabels', () => void state.labels.set(issue, [...(state.labels.get(issue) ?? []), ...labels])),
    pullRequest: (number) =>
      call('pullRequest', () => {
        const pr = known.get(number);
        if (!pr) throw new Error(`no pull request #${number}`);
        return pr;
      }),
    openPullRequest: (pr) =>
      call('openPullRequest', () => {
        const opened = { ...pr, number: ++ids, htmlUrl: `memory://${owner}/${repo}/pulls/${ids}` };
        state.opened.push(opened);
        return { number: opened.number, htmlUrl: opened.htmlUrl };
      }),
    updatePullRequestBody: (number, body) =>
      call('updatePullRequestBody', () => {
        const found = state.opened.find((pr) => pr.number === number);
        if (found) found.body = body;
      }),
    startStatus: (sha, summary) =>
      call('startStatus', () => {
        const id = `status-${++ids}`;
        state.statuses.set(id, { sha, summary, outcome: null });
        return id;
      }),
    completeStatus: (id, outcome) =>
      call('completeStatus', () => {
        const found = state.statuses.get(id);
        if (!found) throw new Error(`no status ${id}`);
        found.outcome = outcome;
      }),
  };
  return Object.assign(forge, state, {
    failNext(method: keyof Forge, ...errors: ForgeError[]) {
      failures.set(method, [...(failures.get(method) ?? []), ...errors]);
    },
  });
}
