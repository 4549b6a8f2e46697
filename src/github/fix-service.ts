// Starting a run from a trigger: who may ask, one active run per issue, the 👀 reaction and the queued
// status comment, then the job. Shared by every handler; nothing here waits for the loop itself.
import type { Logger } from 'pino';
import type { RepoConfig } from '../config/schema.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { newRunId } from '../loop/run-id.ts';
import type { RunFixDeps } from '../loop/run-fix.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { reaches } from '../triggers/permission.ts';
import { runKey, type RunPlan } from '../triggers/run-plan.ts';
import type { Forge } from './forge.ts';
import { activeRunAnswer, configErrorMessage, permissionRefusal, queuedMessage } from './messages.ts';
import { createRunJob } from './run-job.ts';
import { createStatusComment } from './status-comment.ts';

export interface FixServiceDeps {
  queue: JobQueue;
  sandbox: Sandbox;
  artifactsRoot: string;
  tmpRoot: string;
  createEngines?: RunFixDeps['createEngines'];
  setupNetwork?: boolean;
  /** The last plan per issue or pull request, for `/fix retry`. */
  lastPlans: Map<string, RunPlan>;
}

export type StartOutcome = 'started' | 'refused' | 'already-active';

export interface FixService {
  /** Checks the requester's permission and replies with a refusal when it falls short. */
  mayAsk(actor: string, number: number, config: RepoConfig): Promise<boolean>;
  start(plan: RunPlan, config: RepoConfig): Promise<StartOutcome>;
}

export function createFixService(forge: Forge, log: Logger, deps: FixServiceDeps): FixService {
  return {
    async mayAsk(actor, number, config) {
      const minimum = config.triggers.minPermission;
      const actual = await forge.permission(actor);
      if (reaches(actual, minimum)) return true;
      log.info({ actor, permission: actual, minimum, number }, 'request refused: permission');
      await forge.comment(number, permissionRefusal(actor, minimum));
      return false;
    },
    async start(plan, config) {
      if (plan.commentId !== null) {
        await forge.react(plan.commentId, 'eyes').catch((error: unknown) => log.warn({ err: String(error) }, 'reaction failed'));
      }
      if (!config.test.command) {
        await forge.comment(plan.number, configErrorMessage('`test.command` is not set: fixloop needs the command that runs the tests (e.g. `test: { command: npm test }`)'));
        return 'refused';
      }
      const runId = newRunId();
      const status = createStatusComment(forge, plan.number, runId, (error) => log.warn({ runId, err: String(error) }, 'status comment not updated'));
      const job = createRunJob(plan, runId, { forge, config, sandbox: deps.sandbox, artifactsRoot: deps.artifactsRoot, tmpRoot: deps.tmpRoot, log, status, setupNetwork: deps.setupNetwork === true, ...(deps.createEngines ? { createEngines: deps.createEngines } : {}) });
      // The queued comment goes out before the job can post progress, so it is the one updated in place.
      const active = deps.queue.status(runKey(plan));
      if (active) {
        await forge.comment(plan.number, activeRunAnswer(active, config.triggers.command));
        return 'already-active';
      }
      await status.update(queuedMessage(runId, plan.actor, plan.instructions));
      const queued = deps.queue.enqueue(job);
      if (!queued.accepted) {
        await status.update(activeRunAnswer(queued.active, config.triggers.command));
        return 'already-active';
      }
      deps.lastPlans.set(runKey(plan), plan);
      log.info({ runId, repo: `${plan.owner}/${plan.repo}`, number: plan.number, kind: plan.kind, actor: plan.actor, delivery: plan.deliveryId }, 'run queued');
      return 'started';
    },
  };
}
