// A failing check suite or workflow run on a pull request's head (opt-in: `triggers.failingChecks`),
// with the loop guard: counted in the run store, so it holds across restarts and processes.
import { runKey } from '../forge/run-plan.ts';
import type { RepositoryFields } from './github-events.ts';
import { planForFailingCheck } from './github-events.ts';
import type { TriggerDeps } from './trigger-deps.ts';

export interface FailingCheckEvent {
  deliveryId: string;
  repository: RepositoryFields;
  headSha: string;
  /** The check suite's app or the workflow's name, for the report. */
  name: string;
  pullRequests: number[];
  sender: string | null;
}

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
