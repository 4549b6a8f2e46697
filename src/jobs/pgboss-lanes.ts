// The two lanes as pg-boss queues (PostgreSQL): their names, and the one place where the rules for
// holding their jobs are set: the heartbeat that says a worker died (its job then goes to another),
// the tries before a job is given up (to a dead-letter queue), the longest a job may run. The store
// makes each job due through `dispatch`, in its own transaction (postgres/dispatch.ts), and so hands
// pg-boss, once, the jobs an older version stored without giving them to it (postgres/adopt.ts).
import type { PgBoss, Queue } from 'pg-boss';
import type { AdoptedJob, Dispatch, SqlClient } from './postgres/dispatch.ts';
import type { Lane } from './run-store.ts';

export const LANE_QUEUES = {
  run: { queue: 'fixloop-runs', deadLetter: 'fixloop-runs-abandoned' },
  event: { queue: 'fixloop-events', deadLetter: 'fixloop-events-abandoned' },
} as const satisfies Record<Lane, { queue: string; deadLetter: string }>;

/** What pg-boss carries: the stored job's id; everything else is in the store. */
export interface Dispatched {
  runId: string;
  /** Tries the job had before pg-boss carried it (a job adopted from an older version's store). */
  triedBefore?: number;
}

export interface LaneSettings {
  /** Tries before a job is given up (workers that died or were stopped, not test failures). */
  maxTries: number;
  /** A worker that sends no heartbeat for this long is taken to be dead (pg-boss's minimum is 10). */
  heartbeatSeconds: number;
  /** A run stored but never made ready (its trigger died before saying so) becomes due after this. */
  pendingSeconds: number;
}

export interface PgBossLanes {
  /** Started by the caller; stopped by a queue's `shutdown`. */
  boss: PgBoss;
  settings: LaneSettings;
  /** pg-boss's write for each job the store makes due, in the store's transaction. */
  dispatch: Dispatch;
  /** Creates the lanes' queues, or brings their settings up to date; before the first send or work. */
  prepare(): Promise<void>;
}

/**
 * How long a job may run before pg-boss takes it back: a run's own budgets end it sooner (a
 * repository may give it up to a day), and a dead worker is noticed by its heartbeat, not by this.
 */
const EXPIRE_SECONDS: Record<Lane, number> = { run: 86_400, event: 900 };

export function pgBossLanes(boss: PgBoss, settings: Partial<LaneSettings> = {}): PgBossLanes {
  const resolved: LaneSettings = {
    maxTries: settings.maxTries ?? 3,
    heartbeatSeconds: Math.max(10, Math.ceil(settings.heartbeatSeconds ?? 30)),
    pendingSeconds: settings.pendingSeconds ?? 60,
  };
  let prepared: Promise<void> | null = null;
  return {
    boss,
    settings: resolved,
    dispatch: {
      async stored(db, job) {
        const options = { db, singletonKey: job.runId, ...(job.pending ? { startAfter: resolved.pendingSeconds } : {}) };
        await boss.send(LANE_QUEUES[job.lane].queue, { runId: job.runId } satisfies Dispatched, options);
      },
      async ready(db, runId) {
        await boss.update(LANE_QUEUES.run.queue, undefined, { db, singletonKey: runId, startAfter: 0 });
      },
      adopted: (db, job) => adopt(boss, resolved, db, job),
    },
    prepare() {
      prepared ??= createQueues(boss, resolved).catch((error: unknown) => {
        prepared = null;
        throw error;
      });
      return prepared;
    },
  };
}

async function createQueues(boss: PgBoss, settings: LaneSettings): Promise<void> {
  for (const lane of ['run', 'event'] as const) {
    const { queue, deadLetter } = LANE_QUEUES[lane];
    const rules: Omit<Queue, 'name'> = {
      retryLimit: settings.maxTries - 1,
      retryDelay: 1,
      heartbeatSeconds: settings.heartbeatSeconds,
      expireInSeconds: EXPIRE_SECONDS[lane],
      deadLetter,
    };
    await boss.createQueue(deadLetter);
    await boss.createQueue(queue, rules);
    // A queue created by an earlier version, or with other settings, takes these.
    await boss.updateQueue(queue, rules);
  }
}

const LIVE = new Set(['created', 'retry', 'active']);

/**
 * A job an older version stored, not finished: it keeps the pg-boss job that version gave it, if
 * any; else it gets one, as a crash would have left it: due when its old worker's lease ends (a
 * pending run, once its trigger is past saying so), with the tries it had counted, so that it is
 * still given up after `maxTries` (at once, as pg-boss gives up, when its last try died).
 */
async function adopt(boss: PgBoss, settings: LaneSettings, db: SqlClient, job: AdoptedJob): Promise<void> {
  const { queue, deadLetter } = LANE_QUEUES[job.lane];
  const live = async (name: string) => (await boss.findJobs(name, { db, key: job.runId })).filter((j) => LIVE.has(j.state));
  const carried = await live(queue);
  if (carried.length > 0) {
    // That version sent a queued run again at each start, and a standard queue keeps every copy
    // (a singleton key does not refuse one): one is kept, the one a worker held if any.
    const kept = carried.find((j) => j.state === 'active') ?? carried[0];
    const surplus = carried.filter((j) => j !== kept).map((j) => j.id);
    if (surplus.length > 0) await boss.cancel(queue, surplus, { db });
    return;
  }
  // pg-boss gave it up: its dead-letter worker ends it.
  if ((await live(deadLetter)).length > 0) return;
  const data: Dispatched = { runId: job.runId, ...(job.tries > 0 ? { triedBefore: job.tries } : {}) };
  if (job.tries >= settings.maxTries) {
    await boss.send(deadLetter, data, { db, singletonKey: job.runId });
    return;
  }
  const startAfter = job.pending ? settings.pendingSeconds : Math.max(0, Math.ceil(((job.heldUntil ?? 0) - Date.now()) / 1000));
  await boss.send(queue, data, { db, singletonKey: job.runId, startAfter, retryLimit: settings.maxTries - 1 - job.tries });
}
