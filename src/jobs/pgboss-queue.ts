// Workers for one lane on pg-boss (PostgreSQL, workers on many machines): pg-boss alone decides who
// holds a job and for how long (its heartbeat), retries it, hands a dead worker's job to another and
// gives it up after its tries (its dead-letter queue: the store records the end and the person who
// asked is told). The store keeps the record (state, progress, cancel requests, outcome, trail) and
// names the attempt that holds each job, so an attempt pg-boss has handed on can no longer end it.
import type { Job } from 'pg-boss';
import { Shutdown, type JobQueue, type JobRunner } from './job-queue.ts';
import { LANE_QUEUES, type Dispatched, type PgBossLanes } from './pgboss-lanes.ts';
import type { PostgresRunStore } from './postgres-store.ts';
import { HoldLost, leaseOwner, runHeld } from './run-held.ts';
import type { AnyStoredJob, Lane } from './run-store.ts';
import { storeQueries } from './store-queries.ts';

export interface PgBossQueueOptions {
  /** The PostgreSQL store, opened with `lanes.dispatch`. */
  store: PostgresRunStore;
  lanes: PgBossLanes;
  /** `run` (default) for fix runs; `event` for webhook deliveries. */
  lane?: Lane;
  concurrency: number;
  /** How often an idle worker asks pg-boss for a job (at least 0.5 s). */
  pollingSeconds?: number;
  onError?: (error: unknown, job: AnyStoredJob | null) => void;
}

/** What one lane's workers in this process share. */
interface LaneWorkers {
  options: PgBossQueueOptions;
  lane: Lane;
  owner: string;
  running: Map<string, AbortController>;
  idleWaiters: Array<() => void>;
}

export function createPgBossQueue(options: PgBossQueueOptions): JobQueue {
  const { store } = options;
  const workers: LaneWorkers = { options, lane: options.lane ?? 'run', owner: leaseOwner(), running: new Map(), idleWaiters: [] };
  return {
    accept: (event) => store.acceptEvent(event),
    enqueue: (data, actor, deliveryId) => store.enqueue(data, actor, deliveryId),
    markReady: (runId, patch) => store.markReady(runId, patch),
    ...storeQueries(store, workers.running),
    start: (runner, onAbandoned) => start(workers, runner, onAbandoned),
    drain: () => drain(workers),
    shutdown: (graceMs) => shutdown(workers, graceMs),
  };
}

/** One pg-boss worker per slot, and one for the lane's dead letters (the jobs pg-boss gave up). */
async function start(workers: LaneWorkers, runner: JobRunner, onAbandoned?: (job: AnyStoredJob) => Promise<void>): Promise<void> {
  const { options, lane } = workers;
  const { boss, settings } = options.lanes;
  await options.lanes.prepare();
  // The jobs an older version stored and never gave pg-boss, given it now, before any is worked (once).
  await options.store.adoptStored();
  const polling = {
    pollingIntervalSeconds: Math.max(0.5, options.pollingSeconds ?? 1),
    heartbeatRefreshSeconds: Math.floor(settings.heartbeatSeconds / 3),
    localConcurrency: 1,
  };
  // Each slot asks again as soon as its job ends: pg-boss waits out the polling interval after every
  // job, so a backlog would drain at one job per interval and slot (a slot that finds nothing waits it).
  for (let slot = 0; slot < Math.max(1, options.concurrency); slot++) {
    let workerId = '';
    workerId = await boss.work<Dispatched>(LANE_QUEUES[lane].queue, polling, async ([job]) => {
      if (!job) return;
      await runAttempt(workers, job, runner);
      boss.notifyWorker(workerId);
    });
  }
  const outcome = `its worker stopped ${settings.maxTries} time(s) without finishing`;
  await boss.work<Dispatched>(LANE_QUEUES[lane].deadLetter, { pollingIntervalSeconds: 1 }, async ([job]) => {
    if (!job) return;
    const ended = await options.store.giveUp(job.data.runId, outcome);
    if (ended) await onAbandoned?.(ended).catch((error: unknown) => options.onError?.(error, ended));
  });
}

/** The job pg-boss handed this worker, held as its attempt `retryCount + 1` (after any tries it had before pg-boss). */
async function runAttempt(workers: LaneWorkers, job: Job<Dispatched>, runner: JobRunner): Promise<void> {
  const { store, lanes, onError } = workers.options;
  const tries = (job.data.triedBefore ?? 0) + job.retryCount + 1;
  const holder = `${workers.owner}#${tries}`;
  const taken = await store.begin(job.data.runId, holder, tries);
  if (!taken) return; // ended already: its worker recorded the end, then died before pg-boss heard
  const controller = new AbortController();
  // pg-boss aborts the job's signal when its heartbeat finds the job handed to another worker.
  const lost = () => controller.abort(new HoldLost());
  job.signal.addEventListener('abort', lost, { once: true });
  workers.running.set(taken.runId, controller);
  try {
    const how = await runHeld({
      store,
      job: taken,
      holder,
      beat: (progress) => store.report(taken.runId, holder, progress),
      beatMs: Math.floor((lanes.settings.heartbeatSeconds * 1000) / 3),
      runner,
      controller,
      ...(onError ? { onError } : {}),
    });
    // Handed back by a shutdown: failing the attempt makes pg-boss give the job to another worker.
    if (how === 'released') throw new Shutdown();
  } finally {
    job.signal.removeEventListener('abort', lost);
    workers.running.delete(taken.runId);
    if (workers.running.size === 0) for (const resolve of workers.idleWaiters.splice(0)) resolve();
  }
}

/** Resolves when nothing is running here and pg-boss has no job of the lane due. */
async function drain(workers: LaneWorkers): Promise<void> {
  const { boss } = workers.options.lanes;
  for (;;) {
    const queued = await boss.findJobs(LANE_QUEUES[workers.lane].queue, { queued: true });
    const due = queued.filter((job) => job.startAfter.getTime() <= Date.now());
    if (workers.running.size === 0 && due.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Stops taking jobs; running ones get `graceMs` to finish, then are handed back; then pg-boss stops. */
async function shutdown(workers: LaneWorkers, graceMs: number): Promise<void> {
  const { boss } = workers.options.lanes;
  await boss.offWork(LANE_QUEUES[workers.lane].queue, { wait: false });
  const { running, idleWaiters } = workers;
  const finished = new Promise<void>((resolve) => (running.size === 0 ? resolve() : idleWaiters.push(resolve)));
  const grace = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
  if ((await Promise.race([finished, grace])) === 'timeout')
    for (const controller of running.values()) controller.abort(new Shutdown());
  await finished;
  // The process is ending: pg-boss stops with it (the other lane's workers too), once.
  await boss.stop({ graceful: true, timeout: 5000 });
}
