// Workers over a run store's deliveries and jobs: claim with a lease, heartbeat while running (which
// is also how a cancel asked in another process arrives), finish, and recover what a crashed process
// left behind.
import { Shutdown, type JobQueue, type JobRunner } from './job-queue.ts';
import { leaseOwner, runLeased } from './run-leased.ts';
import { storeQueries } from './store-queries.ts';
import type { AnyStoredJob, DeliveryStore, JobStore, Lane } from './run-store.ts';

export interface DurableQueueOptions {
  /** The deliveries (the event lane's intake) and the jobs with their leases. */
  store: DeliveryStore & JobStore;
  concurrency: number;
  /** How long a claim holds without a heartbeat; a dead worker's jobs are taken again after it. */
  leaseMs?: number;
  pollMs?: number;
  /** Claims per job before it is given up (crashes, not test failures). */
  maxTries?: number;
  /** Pending jobs (status comment not posted) older than this are made claimable at start. */
  pendingMs?: number;
  onError?: (error: unknown, job: AnyStoredJob | null) => void;
  /** `run` (default) for fix runs; `event` for webhook deliveries, handled apart so they never wait behind runs. */
  lane?: Lane;
}

function withDefaults(options: DurableQueueOptions) {
  return { concurrency: Math.max(1, options.concurrency), leaseMs: options.leaseMs ?? 30_000, pollMs: options.pollMs ?? 1000, maxTries: options.maxTries ?? 3, lane: options.lane ?? 'run' };
}

export function createDurableQueue(options: DurableQueueOptions): JobQueue {
  const { store } = options;
  const { concurrency, leaseMs, pollMs, maxTries, lane } = withDefaults(options);
  const owner = leaseOwner();
  const running = new Map<string, AbortController>();
  const idleWaiters: Array<() => void> = [];
  let runner: JobRunner | null = null;
  let stopped = false;
  let claiming = false;
  let emptyAfterClaim = false;
  let timer: NodeJS.Timeout | null = null;
  let abandonedHandler: ((job: AnyStoredJob) => Promise<void>) | undefined;
  let lastRecovery = 0;

  /** Takes back what a dead worker (here or on another machine) held, once per lease period. */
  const recover = async () => {
    lastRecovery = Date.now();
    const { abandoned } = await store.recover(maxTries, options.pendingMs ?? 60_000);
    for (const job of abandoned) await abandonedHandler?.(job).catch((error: unknown) => options.onError?.(error, job));
  };

  const settleIdle = () => (running.size === 0 && emptyAfterClaim ? idleWaiters.splice(0).forEach((resolve) => resolve()) : undefined);

  const execute = async (job: AnyStoredJob) => {
    const controller = new AbortController();
    running.set(job.runId, controller);
    try {
      await runLeased({ store, job, owner, leaseMs, runner: runner as JobRunner, controller, ...(options.onError ? { onError: options.onError } : {}) });
    } finally {
      running.delete(job.runId);
      void pump();
      settleIdle();
    }
  };

  const pump = async (): Promise<void> => {
    if (!runner || stopped || claiming) return;
    claiming = true;
    try {
      while (!stopped && running.size < concurrency) {
        const job = await store.claim(owner, leaseMs, lane);
        if (!job) {
          emptyAfterClaim = true;
          break;
        }
        emptyAfterClaim = false;
        void execute(job);
      }
    } catch (error) {
      options.onError?.(error, null);
    } finally {
      claiming = false;
      settleIdle();
    }
  };

  return {
    async accept(event) {
      const fresh = await store.acceptEvent(event);
      if (fresh) {
        emptyAfterClaim = false;
        void pump();
      }
      return fresh;
    },
    async enqueue(data, actor, deliveryId) {
      emptyAfterClaim = false;
      return store.enqueue(data, actor, deliveryId);
    },
    async markReady(runId, patch) {
      await store.markReady(runId, patch);
      emptyAfterClaim = false;
      void pump();
    },
    ...storeQueries(store, running),
    async start(run, onAbandoned) {
      runner = run;
      abandonedHandler = onAbandoned;
      await recover();
      timer = setInterval(() => {
        if (Date.now() - lastRecovery >= leaseMs) void recover().catch((error: unknown) => options.onError?.(error, null));
        void pump();
      }, pollMs);
      timer.unref();
      await pump();
    },
    async drain() {
      await pump();
      if (running.size === 0 && emptyAfterClaim) return;
      await new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    async shutdown(graceMs) {
      stopped = true;
      if (timer) clearInterval(timer);
      emptyAfterClaim = true;
      await finishOrAbort(running, idleWaiters, graceMs);
    },
  };
}

/** Lets running jobs finish within `graceMs`, then aborts them with `Shutdown` (they are released). */
async function finishOrAbort(running: Map<string, AbortController>, idleWaiters: Array<() => void>, graceMs: number): Promise<void> {
  const finished = new Promise<void>((resolve) => {
    if (running.size === 0) resolve();
    else idleWaiters.push(resolve);
  });
  const grace = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
  if ((await Promise.race([finished, grace])) === 'timeout') {
    for (const controller of running.values()) controller.abort(new Shutdown());
    await finished;
  }
}
