// The two lanes as pg-boss queues (PostgreSQL): their names, and the one place where the rules for
// holding their jobs are set: the heartbeat that says a worker died (its job then goes to another),
// the tries before a job is given up (to a dead-letter queue), the longest a job may run. The store
// makes each job due through `dispatch`, in its own transaction (postgres/dispatch.ts).
import type { PgBoss, Queue } from 'pg-boss';
import type { Dispatch } from './postgres/dispatch.ts';
import type { Lane } from './run-store.ts';

export const LANE_QUEUES = {
  run: { queue: 'fixloop-runs', deadLetter: 'fixloop-runs-abandoned' },
  event: { queue: 'fixloop-events', deadLetter: 'fixloop-events-abandoned' },
} as const satisfies Record<Lane, { queue: string; deadLetter: string }>;

/** What pg-boss carries: the stored job's id; everything else is in the store. */
export interface Dispatched {
  runId: string;
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
