// Stopping the active run of an issue or a pull request, for whoever may ask: `/fix cancel`, and an
// unassignment of fixloop's assignee. A queued run never starts; a running one stops at its next check.
import type { RepoConfig } from '../core/repo-config.ts';
import { runKey } from '../forge/run-plan.ts';
import { mayAsk } from './may-ask.ts';
import type { TriggerDeps } from './trigger-deps.ts';

export async function cancelRun(deps: TriggerDeps, config: RepoConfig, number: number, requester: string): Promise<void> {
  if (!(await mayAsk(deps.forge, deps.log, requester, number, config))) return;
  const key = runKey({ owner: deps.forge.owner, repo: deps.forge.repo, number });
  const info = await deps.queue.cancel(key, requester);
  deps.log.info({ key, actor: requester, runId: info?.runId }, 'cancel requested');
  await deps.forge.comment(
    number,
    info
      ? `🛑 Cancelling run \`${info.runId}\` (asked by @${requester}).`
      : 'No **fixloop** run is active here: nothing to cancel.',
  );
}
