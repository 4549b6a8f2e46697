// A failing check on a pull request's head (opt-in: `triggers.failingChecks`), with the loop guard:
// counted in the run store, so it holds across restarts and processes.
import { runKey } from '../forge/run-plan.ts';
import type { FailingCheckEvent } from './forge-events.ts';
import { planForFailingCheck } from './run-plans.ts';
import type { Trigger } from './trigger.ts';
import type { TriggerDeps } from './trigger-deps.ts';

export const failingCheckTrigger: Trigger<FailingCheckEvent> = {
  name: 'failing-check',
  handle: (event, deps) => onFailingCheck(event, deps),
};

/**
 * The command of the step that failed, from the forge's CI definition: the run makes it the gate when
 * it is not the tests. Not knowing it is no reason to stop: the run reproduces the tests' failure.
 */
async function failedCommand(event: FailingCheckEvent, deps: TriggerDeps): Promise<string | null> {
  if (!event.source || !deps.forge.failingCommand) return null;
  try {
    return await deps.forge.failingCommand(event.source, event.headSha);
  } catch (error) {
    deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'failing step not read');
    return null;
  }
}

export async function onFailingCheck(event: FailingCheckEvent, deps: TriggerDeps): Promise<void> {
  const config = await deps.config(null);
  if (!config?.triggers.failingChecks) return;
  const pr = await deps.forge.pullRequest(event.changeRequests[0] ?? 0);
  if (pr.headSha !== event.headSha) return; // an older commit failed: the pull request has moved on.
  const key = runKey({ owner: deps.forge.owner, repo: deps.forge.repo, number: pr.number });
  // fixloop's own branches get one reaction in all; other pull requests a few.
  const limit = pr.headRef.startsWith(config.pr.branchPrefix) ? 1 : config.triggers.maxRunsPerPullRequest;
  const used = await deps.queue.countRuns(key, 'check');
  if (used >= limit) {
    deps.log.info({ key, used, limit }, 'failing check ignored: run limit reached');
    return;
  }
  const plan = planForFailingCheck({
    repository: event.repository,
    pr,
    checkName: event.checkName,
    sha: event.headSha,
    actor: event.requester,
    deliveryId: event.deliveryId,
    failedCommand: await failedCommand(event, deps),
  });
  await deps.service.start(plan, config);
}
