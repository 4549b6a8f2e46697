// The triggers' dependencies as plain records: a forge that answers permissions and pull requests and
// keeps the comments it was asked to post, a service and a queue that keep what they were asked.
import pino from 'pino';
import { repoConfigSchema, type RepoConfig } from '../../src/core/repo-config.ts';
import type { FixService } from '../../src/forge/fix-service.ts';
import type { Forge, PullRequestInfo } from '../../src/forge/forge.ts';
import type { Permission } from '../../src/forge/permission.ts';
import type { RunPlan } from '../../src/forge/run-plan.ts';
import type { JobQueue } from '../../src/jobs/job-queue.ts';
import type { TriggerDeps } from '../../src/triggers/trigger-deps.ts';

export interface FakeDeps extends TriggerDeps {
  comments: { issue: number; body: string }[];
  started: RunPlan[];
  cancelled: string[];
}

export function pullRequest(over: Partial<PullRequestInfo> = {}): PullRequestInfo {
  return {
    number: 7,
    title: 'Add coupons',
    body: '',
    headRef: 'coupons',
    headSha: 'a'.repeat(40),
    baseRef: 'main',
    fromFork: false,
    headCloneUrl: 'https://github.com/acme/shop.git',
    htmlUrl: 'https://github.com/acme/shop/pull/7',
    ...over,
  };
}

export function fakeDeps(
  options: {
    config?: Record<string, unknown>;
    permissions?: Record<string, Permission>;
    pr?: PullRequestInfo;
    checkRuns?: number;
  } = {},
): FakeDeps {
  const comments: FakeDeps['comments'] = [];
  const started: RunPlan[] = [];
  const cancelled: string[] = [];
  const unused = (): never => {
    throw new Error('not used by the triggers');
  };
  const forge: Forge = {
    owner: 'acme',
    repo: 'shop',
    cloneAuth: unused,
    permission: async (user) => options.permissions?.[user] ?? 'none',
    react: async () => undefined,
    comment: async (issue, body) => (comments.push({ issue, body }), comments.length),
    updateComment: unused,
    findComment: unused,
    addLabels: unused,
    pullRequest: async (number) => options.pr ?? pullRequest({ number }),
    openPullRequest: unused,
    updatePullRequestBody: unused,
    startStatus: unused,
    completeStatus: unused,
  };
  const service: FixService = { start: async (plan) => (started.push(plan), 'started') };
  const queue = {
    status: async () => null,
    countRuns: async () => options.checkRuns ?? 0,
    lastRun: async () => null,
    cancel: async (key: string) => (cancelled.push(key), null),
  } as Partial<JobQueue> as JobQueue;
  const config: RepoConfig = repoConfigSchema.parse({ test: { command: 'npm test' }, ...options.config });
  return { forge, service, queue, log: pino({ level: 'silent' }), config: async () => config, comments, started, cancelled };
}
