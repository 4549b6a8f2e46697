// The run queue on pg-boss, for workers on many machines sharing the PostgreSQL store: pg-boss
// dispatches run ids (who gets which job, retries, and noticing a worker that died by its missing
// heartbeats); the store stays the record of each run (state, progress, cancel, outcome, trail).
import type { PgBoss } from 'pg-boss';
import { Shutdown, type JobQueue, type JobRunner } from './job-queue.ts';
import type { RunDispatchStore } from './postgres/dispatch.ts';
import type { AnyStoredJob, JobStore } from './run-store.ts';
import { leaseOwner, runLeased } from './run-leased.ts';
import { storeQueries } from './store-queries.ts';

export const RUNS_QUEUE = 'fixloop-runs';
export const ABANDONED_QUEUE = 'fixloop-runs-abandoned';

export interface PgBossQueueOptions {
  /** The jobs with their leases, and run dispatch (the PostgreSQL store). */
  store: JobStore & RunDispatchStore;
  /** Started by the caller; stopped by `shutdown`. */
  boss: PgBoss;
  concurrency: number;
  /** Dispatches per run before it is given up (crashes, not test failures). */
  maxTries?: number;
  /** The store lease: progress and cancels travel with its renewal. */
  leaseMs?: number;
  /**
   * pg-boss takes a job back when its worker sends no heartbeat for this long (at least 10 s, and
   * twice the lease by default): by then the dead worker's lease has expired, so the run can be taken.
   */
  heartbeatSeconds?: number;
  /** How often an idle worker asks pg-boss for a job (at least 0.5 s). */
  pollingSeconds?: number;
  onError?: (error: unknown, job: AnyStoredJob | null) => void;
}

interface Dispatch {
  runId: string;
}

export function createPgBossQueue(options: PgBossQueueOptions): JobQueue {
  const { store, boss } = options;
  const maxTries = options.maxTries ?? 3;
  const leaseMs = options.leaseMs ?? 30_000;
  const heartbeatSeconds = Math.max(10, options.heartbeatSeconds ?? Math.ceil((2 * leaseMs) / 1000));
  const owner = leaseOwner();
  const running = new Map<string, AbortController>();
  const idleWaiters: Array<() => void> = [];
  const dispatch = (runId: string) => boss.send(RUNS_QUEUE, { runId } satisfies Dispatch, { singletonKey: runId });
  const settleIdle = () => {
    if (running.size === 0) for (const resolve of idleWaiters.splice(0)) resolve();
  };

  return {
    accept() {
      return Promise.reject(new Error('the pg-boss queue carries runs; deliveries go through the event lane'));
    },
    enqueue: (data, actor, deliveryId) => store.enqueue(data, actor, deliveryId),
    async markReady(runId, patch) {
      await store.markReady(runId, patch);
      await dispatch(runId);
    },
    ...storeQueries(store, running),
    async start(runner: JobRunner, onAbandoned) {
      await boss.createQueue(ABANDONED_QUEUE);
      await boss.createQueue(RUNS_QUEUE, {
        retryLimit: maxTries - 1,
        retryDelay: 1,
        heartbeatSeconds,
        deadLetter: ABANDONED_QUEUE,
      });
      // Pending runs whose trigger died are made ready; ready runs whose dispatch was lost (a crash
      // between the store's write and pg-boss's) are dispatched again: the singleton key keeps one.
      const { abandoned } = await store.recover(maxTries, 60_000);
      for (const job of abandoned) await onAbandoned?.(job).catch((error: unknown) => options.onError?.(error, job));
      for (const runId of await store.queuedRunIds(1000)) await dispatch(runId);
      const runDispatched = async (runId: string) => {
        const claimed = await store.claimRun(runId, owner, leaseMs);
        if (!claimed) return; // ended already, or still held by a live worker: a second dispatch
        const controller = new AbortController();
        running.set(claimed.runId, controller);
        try {
          const how = await runLeased({
            store,
            job: claimed,
            owner,
            leaseMs,
            runner,
            controller,
            ...(options.onError ? { onError: options.onError } : {}),
          });
          // Released by a shutdown: failing the attempt makes pg-boss hand it to another worker.
          if (how === 'released') throw new Shutdown();
        } finally {
          running.delete(claimed.runId);
          settleIdle();
        }
      };
      // One pg-boss worker per slot, each of which asks again as soon as its run ends: pg-boss waits
      // out the polling interval after every job, so a backlog of runs drained at one per interval
      // and slot (a worker that finds nothing waits the interval, as before).
      const polling = {
        pollingIntervalSeconds: Math.max(0.5, options.pollingSeconds ?? 1),
        heartbeatRefreshSeconds: Math.floor(heartbeatSeconds / 3),
      };
      for (let slot = 0; slot < Math.max(1, options.concurrency); slot++) {
        let workerId = '';
        workerId = await boss.work<Dispatch>(RUNS_QUEUE, { ...polling, localConcurrency: 1 }, async ([job]) => {
          if (!job) return;
          await runDispatched(job.data.runId);
          boss.notifyWorker(workerId);
        });
      }
      await boss.work<Dispatch>(ABANDONED_QUEUE, { pollingIntervalSeconds: 1 }, async ([job]) => {
        if (!job) return;
        const ended = await store.abandon(job.data.runId, `its worker stopped ${maxTries} time(s) without finishing`);
        if (ended) await onAbandoned?.(ended);
      });
    },
    async drain() {
      for (;;) {
        if (running.size === 0 && (await store.queuedRunIds(1)).length === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async shutdown(graceMs) {
      const finished = new Promise<void>((resolve) => (running.size === 0 ? resolve() : idleWaiters.push(resolve)));
      const grace = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
      if ((await Promise.race([finished, grace])) === 'timeout')
        for (const controller of running.values()) controller.abort(new Shutdown());
      await finished;
      await boss.stop({ graceful: true, timeout: 5000 });
    },
  };
}
