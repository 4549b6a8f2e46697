// The embedded queue: workers over the embedded store's deliveries and jobs (SQLite): claim with a
// lease, heartbeat while running (which is also how a cancel asked in another process arrives),
// finish, and recover what a crashed process left behind.
import { Shutdown, type JobQueue, type JobRunner } from './job-queue.ts';
import { leaseOwner, runHeld } from './run-held.ts';
import { storeQueries } from './store-queries.ts';
import type { AnyStoredJob, DeliveryStore, JobLeases, JobStore, Lane } from './run-store.ts';

export interface DurableQueueOptions {
  /** The deliveries (the event lane's intake) and the jobs with their leases. */
  store: DeliveryStore & JobStore & JobLeases;
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
  return {
    concurrency: Math.max(1, options.concurrency),
    leaseMs: options.leaseMs ?? 30_000,
    pollMs: options.pollMs ?? 1000,
    maxTries: options.maxTries ?? 3,
    lane: options.lane ?? 'run',
  };
}

/** What one queue's claim loop, its running jobs and its lifecycle share. */
interface QueueState {
  options: DurableQueueOptions;
  settings: ReturnType<typeof withDefaults>;
  owner: string;
  running: Map<string, AbortController>;
  idleWaiters: Array<() => void>;
  runner: JobRunner | null;
  stopped: boolean;
  claiming: boolean;
  /** The last claim found nothing and nothing was added since: with no job running, the queue is idle. */
  emptyAfterClaim: boolean;
  timer: NodeJS.Timeout | null;
  abandonedHandler: ((job: AnyStoredJob) => Promise<void>) | undefined;
  lastRecovery: number;
}

export function createDurableQueue(options: DurableQueueOptions): JobQueue {
  const { store } = options;
  const state: QueueState = {
    options,
    settings: withDefaults(options),
    owner: leaseOwner(),
    running: new Map(),
    idleWaiters: [],
    runner: null,
    stopped: false,
    claiming: false,
    emptyAfterClaim: false,
    timer: null,
    abandonedHandler: undefined,
    lastRecovery: 0,
  };
  return {
    async accept(event) {
      const fresh = await store.acceptEvent(event);
      if (fresh) {
        state.emptyAfterClaim = false;
        void pump(state);
      }
      return fresh;
    },
    async enqueue(data, actor, deliveryId) {
      state.emptyAfterClaim = false;
      return store.enqueue(data, actor, deliveryId);
    },
    async markReady(runId, patch) {
      await store.markReady(runId, patch);
      state.emptyAfterClaim = false;
      void pump(state);
    },
    ...storeQueries(store, state.running),
    start: (run, onAbandoned) => start(state, run, onAbandoned),
    drain: () => drain(state),
    shutdown: (graceMs) => shutdown(state, graceMs),
  };
}

/** Takes back what a dead worker (here or on another machine) held, once per lease period. */
async function recover(state: QueueState): Promise<void> {
  const { options } = state;
  state.lastRecovery = Date.now();
  const { abandoned } = await options.store.recover(state.settings.maxTries, options.pendingMs ?? 60_000);
  for (const job of abandoned) await state.abandonedHandler?.(job).catch((error: unknown) => options.onError?.(error, job));
}

function settleIdle(state: QueueState): void {
  if (state.running.size === 0 && state.emptyAfterClaim) state.idleWaiters.splice(0).forEach((resolve) => resolve());
}

/** Runs one claimed job under its lease, then claims more. */
async function execute(state: QueueState, job: AnyStoredJob): Promise<void> {
  const { options, running } = state;
  const controller = new AbortController();
  running.set(job.runId, controller);
  const { leaseMs } = state.settings;
  try {
    await runHeld({
      store: options.store,
      job,
      holder: state.owner,
      // The heartbeat renews the lease every third of it.
      beat: (progress) => options.store.heartbeat(job.runId, state.owner, leaseMs, progress),
      beatMs: Math.max(50, Math.floor(leaseMs / 3)),
      runner: state.runner as JobRunner,
      controller,
      ...(options.onError ? { onError: options.onError } : {}),
    });
  } finally {
    running.delete(job.runId);
    void pump(state);
    settleIdle(state);
  }
}

/** Claims jobs while there is room, one claim loop at a time. */
async function pump(state: QueueState): Promise<void> {
  if (!state.runner || state.stopped || state.claiming) return;
  const { options, settings } = state;
  state.claiming = true;
  try {
    while (!state.stopped && state.running.size < settings.concurrency) {
      const job = await options.store.claim(state.owner, settings.leaseMs, settings.lane);
      if (!job) {
        state.emptyAfterClaim = true;
        break;
      }
      state.emptyAfterClaim = false;
      void execute(state, job);
    }
  } catch (error) {
    options.onError?.(error, null);
  } finally {
    state.claiming = false;
    settleIdle(state);
  }
}

/** Recovers, then claims now and at every poll (recovering again once per lease period). */
async function start(state: QueueState, run: JobRunner, onAbandoned?: (job: AnyStoredJob) => Promise<void>): Promise<void> {
  const { options, settings } = state;
  state.runner = run;
  state.abandonedHandler = onAbandoned;
  await recover(state);
  state.timer = setInterval(() => {
    if (Date.now() - state.lastRecovery >= settings.leaseMs)
      void recover(state).catch((error: unknown) => options.onError?.(error, null));
    void pump(state);
  }, settings.pollMs);
  state.timer.unref();
  await pump(state);
}

/** Resolves once no job is running and the last claim found none. */
async function drain(state: QueueState): Promise<void> {
  await pump(state);
  if (state.running.size === 0 && state.emptyAfterClaim) return;
  await new Promise<void>((resolve) => state.idleWaiters.push(resolve));
}

async function shutdown(state: QueueState, graceMs: number): Promise<void> {
  state.stopped = true;
  if (state.timer) clearInterval(state.timer);
  state.emptyAfterClaim = true;
  await finishOrAbort(state.running, state.idleWaiters, graceMs);
}

/** Lets running jobs finish within `graceMs`, then aborts them with `Shutdown` (they are released). */
async function finishOrAbort(
  running: Map<string, AbortController>,
  idleWaiters: Array<() => void>,
  graceMs: number,
): Promise<void> {
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
