// One claimed job, run under its lease: a heartbeat every third of the lease renews it, saves the
// progress and brings cancel requests from any process; the job then ends in the store (or, on a
// shutdown, is released to run again). Shared by every queue engine.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Cancelled, Shutdown, type JobRunner } from './job-queue.ts';
import type { AnyStoredJob, JobStore } from './run-store.ts';

export interface LeasedRun {
  /** Only its jobs and leases: heartbeat, finish, release. */
  store: JobStore;
  job: AnyStoredJob;
  owner: string;
  leaseMs: number;
  runner: JobRunner;
  /** The job's abort controller, registered so a local cancel or shutdown can reach it. */
  controller: AbortController;
  onError?: (error: unknown, job: AnyStoredJob | null) => void;
}

/** Who holds a lease: this process on this machine (distinct per queue, so two lanes never mix). */
export function leaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** 'released' when a shutdown interrupted the job: it was handed back, not ended. */
export async function runLeased(run: LeasedRun): Promise<'ended' | 'released'> {
  const { store, job, owner, leaseMs, controller } = run;
  let progress: string | undefined;
  const beat = setInterval(
    () => {
      void store
        .heartbeat(job.runId, owner, leaseMs, progress)
        .then((answer) => {
          if (answer === null) controller.abort(new Error('the lease was lost'));
          else if (answer.cancelRequestedBy && !controller.signal.aborted)
            controller.abort(new Cancelled(answer.cancelRequestedBy));
        })
        .catch((error: unknown) => run.onError?.(error, job));
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  try {
    if (job.cancelRequestedBy) controller.abort(new Cancelled(job.cancelRequestedBy));
    const result = await run.runner(job, { signal: controller.signal, report: (p) => void (progress = p) });
    if (controller.signal.reason instanceof Shutdown) {
      await store.release(job.runId, owner);
      return 'released';
    }
    await store.finish(job.runId, owner, result.state, result.outcome, result.artifactsDir ?? null);
    return 'ended';
  } catch (error) {
    run.onError?.(error, job);
    if (controller.signal.reason instanceof Shutdown) {
      await store.release(job.runId, owner).catch(() => undefined);
      return 'released';
    }
    await store.finish(job.runId, owner, 'failed', error instanceof Error ? error.message : String(error)).catch(() => undefined);
    return 'ended';
  } finally {
    clearInterval(beat);
  }
}
