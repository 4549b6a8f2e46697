// A failing check suite or workflow run on a pull request's head (opt-in: `triggers.failingChecks`),
// with the loop guard: counted in the run store, so it holds across restarts and processes.
import { runKey } from '../forge/run-plan.ts';
import type { RepositoryFields } from './github-events.ts';
import { planForFailingCheck } from './github-events.ts';
import type { Trigger } from './trigger.ts';
import type { TriggerDeps } from './trigger-deps.ts';

/** What a check suite and a workflow run both say of their outcome. */
interface CheckOutcome {
  conclusion: string | null;
  head_sha: string;
  pull_requests: ({ number: number } | null)[];
}

/** The fields of `check_suite.completed` read here. */
export interface CheckSuitePayload {
  repository: RepositoryFields;
  check_suite: CheckOutcome & { app: { id?: number | null; name?: string } | null };
  sender?: { login: string; type?: string } | null;
}

/** The fields of `workflow_run.completed` read here. */
export interface WorkflowRunPayload {
  repository: RepositoryFields;
  workflow_run: CheckOutcome & { name?: string | null };
  sender?: { login: string; type?: string } | null;
}

export interface FailingCheckEvent {
  deliveryId: string;
  repository: RepositoryFields;
  headSha: string;
  /** The check suite's app or the workflow's name, for the report. */
  name: string;
  pullRequests: number[];
  sender: string | null;
}

const FAILED_CONCLUSIONS = new Set(['failure', 'timed_out']);

export const checkSuiteTrigger: Trigger<'check_suite.completed', CheckSuitePayload> = {
  event: 'check_suite.completed',
  // fixloop's own failed check run must never start another run.
  concerns: ({ check_suite: suite }, self) => failedOnPullRequests(suite) && !(self.appId !== undefined && suite.app?.id === self.appId),
  handle: ({ id, payload }, deps) => onFailingCheck(failingCheckEvent(id, payload, payload.check_suite, payload.check_suite.app?.name ?? 'check suite'), deps),
};

export const workflowRunTrigger: Trigger<'workflow_run.completed', WorkflowRunPayload> = {
  event: 'workflow_run.completed',
  concerns: ({ workflow_run: run }) => failedOnPullRequests(run),
  handle: ({ id, payload }, deps) => onFailingCheck(failingCheckEvent(id, payload, payload.workflow_run, payload.workflow_run.name ?? 'workflow'), deps),
};

export async function onFailingCheck(event: FailingCheckEvent, deps: TriggerDeps): Promise<void> {
  const config = await deps.config(null);
  if (!config?.triggers.failingChecks) return;
  const pr = await deps.forge.pullRequest(event.pullRequests[0] ?? 0);
  if (pr.headSha !== event.headSha) return; // an older commit failed: the pull request has moved on.
  const key = runKey({ owner: deps.forge.owner, repo: deps.forge.repo, number: pr.number });
  // fixloop's own branches get one reaction in all; other pull requests a few.
  const limit = pr.headRef.startsWith(config.pr.branchPrefix) ? 1 : config.triggers.maxRunsPerPullRequest;
  const used = await deps.queue.countRuns(key, 'check');
  if (used >= limit) {
    deps.log.info({ key, used, limit }, 'failing check ignored: run limit reached');
    return;
  }
  const plan = planForFailingCheck({ repository: event.repository, pr, checkName: event.name, sha: event.headSha, actor: event.sender, deliveryId: event.deliveryId });
  await deps.service.start(plan, config);
}

function failedOnPullRequests(outcome: CheckOutcome): boolean {
  return FAILED_CONCLUSIONS.has(outcome.conclusion ?? '') && outcome.pull_requests.length > 0;
}

function failingCheckEvent(deliveryId: string, payload: CheckSuitePayload | WorkflowRunPayload, outcome: CheckOutcome, name: string): FailingCheckEvent {
  return {
    deliveryId,
    repository: payload.repository,
    headSha: outcome.head_sha,
    name,
    pullRequests: outcome.pull_requests.flatMap((p) => (p ? [p.number] : [])),
    sender: payload.sender?.login ?? null,
  };
}
