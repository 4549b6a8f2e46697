// One job, run while its worker holds it: a beat every few seconds saves the progress and brings
// cancel requests from any process (and, on the embedded queue, renews the lease); the job then ends
// in the store, or, on a shutdown, is handed back to run again. Shared by every queue engine.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Cancelled, Shutdown, type JobOutcome, type JobRunner } from './job-queue.ts';
import type { AnyStoredJob, JobStore } from './run-store.ts';

/** The abort reason when the job is no longer held here: its engine handed it to another worker. */
export class HoldLost extends Error {
  constructor() {
    super('the job was handed to another worker');
    this.name = 'HoldLost';
  }
}

export interface HeldRun {
  /** Only its jobs' ends: finish, release. */
  store: Pick<JobStore, 'finish' | 'release'>;
  job: AnyStoredJob;
  /** Who holds the job in the store: only it can end the job or hand it back. */
  holder: string;
  /** Saves the progress and answers the job's cancel request; null once the job is no longer held here. */
  beat(progress: string | undefined): Promise<{ cancelRequestedBy: string | null } | null>;
  beatMs: number;
  runner: JobRunner;
  /** The job's abort controller, registered so a local cancel or shutdown can reach it. */
  controller: AbortController;
  onError?: (error: unknown, job: AnyStoredJob | null) => void;
}

/** Who holds a job: this process on this machine (distinct per queue, so two lanes never mix). */
export function leaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** 'released' when a shutdown interrupted the job (handed back, not ended); 'lost' when another worker holds it now. */
export async function runHeld(run: HeldRun): Promise<'ended' | 'released' | 'lost'> {
  const { job, controller } = run;
  let progress: string | undefined;
  const beat = setInterval(() => {
    void run
      .beat(progress)
      .then((answer) => {
        if (answer === null) controller.abort(new HoldLost());
        else if (answer.cancelRequestedBy && !controller.signal.aborted)
          controller.abort(new Cancelled(answer.cancelRequestedBy));
      })
      .catch((error: unknown) => run.onError?.(error, job));
  }, run.beatMs);
  try {
    if (job.cancelRequestedBy) controller.abort(new Cancelled(job.cancelRequestedBy));
    const result = await run.runner(job, { signal: controller.signal, report: (p) => void (progress = p) });
    return await end(run, result);
  } catch (error) {
    run.onError?.(error, job);
    const failed: JobOutcome = { state: 'failed', outcome: error instanceof Error ? error.message : String(error) };
    return await end(run, failed).catch(() => (controller.signal.reason instanceof Shutdown ? 'released' : 'ended'));
  } finally {
    clearInterval(beat);
  }
}

/** Records how the job ended, as its holder; a job handed on is left to its new holder. */
async function end(run: HeldRun, result: JobOutcome): Promise<'ended' | 'released' | 'lost'> {
  const { store, job, holder, controller } = run;
  if (controller.signal.reason instanceof HoldLost) return 'lost';
  if (controller.signal.reason instanceof Shutdown) {
    await store.release(job.runId, holder);
    return 'released';
  }
  await store.finish(job.runId, holder, result.state, result.outcome, result.artifactsDir ?? null);
  return 'ended';
}
