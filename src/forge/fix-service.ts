// Starting a run once a trigger has decided it may (src/triggers/): one active run per issue, the 👀
// reaction, the job stored, then the queued status comment. Nothing here waits for the loop itself.
import type { Logger } from 'pino';
import type { RepoConfig } from '../core/repo-config.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { newRunId } from '../core/run-id.ts';
import { newRunJob, statusCommentPatch } from './run-job-data.ts';
import { runKey, type RunPlan } from './run-plan.ts';
import type { Forge } from './forge.ts';
import { activeRunAnswer, configErrorMessage, queuedMessage } from './messages.ts';
import { createStatusComment } from './status-comment.ts';

export interface FixServiceDeps {
  queue: JobQueue;
}

export type StartOutcome = 'started' | 'refused' | 'already-active';

export interface FixService {
  start(plan: RunPlan, config: RepoConfig): Promise<StartOutcome>;
}

/** `credentialRef`: whose credentials the run will act with, opaque here (see RunJobData). */
export function createFixService(forge: Forge, log: Logger, credentialRef: string, deps: FixServiceDeps): FixService {
  return {
    async start(plan, config) {
      if (plan.commentId !== null) {
        await forge.react(plan.commentId, 'eyes').catch((error: unknown) => log.warn({ err: String(error) }, 'reaction failed'));
      }
      if (!config.test.command) {
        await forge.comment(
          plan.number,
          configErrorMessage(
            '`test.command` is not set: fixloop needs the command that runs the tests (e.g. `test: { command: npm test }`)',
          ),
        );
        return 'refused';
      }
      const runId = newRunId();
      const key = runKey(plan);
      // Stored before anything is said or the webhook answered: a crash from here on loses nothing.
      const queued = await deps.queue.enqueue(
        newRunJob({ runId, key, credentialRef, plan, config, statusCommentId: null }),
        plan.actor,
        plan.deliveryId,
      );
      if (!queued.accepted) {
        await forge.comment(plan.number, activeRunAnswer(queued.active, config.triggers.command));
        return 'already-active';
      }
      const status = createStatusComment(forge, plan.number, runId, (error) =>
        log.warn({ runId, err: String(error) }, 'status comment not updated'),
      );
      await status.update(queuedMessage(runId, plan.actor, plan.instructions));
      await deps.queue.markReady(runId, statusCommentPatch(status.id()));
      log.info(
        {
          runId,
          repo: `${plan.owner}/${plan.repo}`,
          number: plan.number,
          kind: plan.kind,
          actor: plan.actor,
          delivery: plan.deliveryId,
        },
        'run queued',
      );
      return 'started';
    },
  };
}
