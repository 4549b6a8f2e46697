// One queue engine per store: the embedded store (SQLite, in the data directory) with the embedded
// queue for both lanes; or the shared PostgreSQL store (DATABASE_URL) with pg-boss for both lanes.
import { createDurableQueue } from './durable-queue.ts';
import type { JobQueue } from './job-queue.ts';
import { pgBossLanes } from './pgboss-lanes.ts';
import { createPgBossQueue } from './pgboss-queue.ts';
import { openPostgresStore } from './postgres-store.ts';
import type { AnyStoredJob, RunStore } from './run-store.ts';
import { openSqliteStore } from './sqlite-store.ts';

export interface QueueSettings {
  /** Runs at once in this process. */
  concurrency: number;
  /** How long a worker may go unheard before its job is given to another. */
  leaseSeconds: number;
  onJobError: (error: unknown, job?: AnyStoredJob | null) => void;
}

export interface OpenedQueues {
  store: RunStore;
  /** Fix runs (long). */
  queue: JobQueue;
  /** Webhook deliveries (quick), a few at once. */
  inbox: JobQueue;
}

export async function embeddedQueues(dataDir: string, settings: QueueSettings): Promise<OpenedQueues> {
  const store = await openSqliteStore(dataDir);
  const { concurrency, leaseSeconds, onJobError: onError } = settings;
  return {
    store,
    queue: createDurableQueue({ store, concurrency, leaseMs: leaseSeconds * 1000, onError }),
    inbox: createDurableQueue({ store, concurrency: 4, lane: 'event', leaseMs: 60_000, pollMs: 200, onError }),
  };
}

export async function sharedQueues(databaseUrl: string, env: NodeJS.ProcessEnv, settings: QueueSettings): Promise<OpenedQueues> {
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: databaseUrl, schema: env.FIXLOOP_PGBOSS_SCHEMA ?? 'pgboss' });
  boss.on('error', (error: unknown) => settings.onJobError(error));
  const lanes = pgBossLanes(boss, { heartbeatSeconds: settings.leaseSeconds });
  // The store first: one that cannot be used is named (DATABASE_URL, without its password).
  const store = await openPostgresStore(databaseUrl, lanes.dispatch);
  await boss.start();
  await lanes.prepare();
  const { concurrency, onJobError: onError } = settings;
  return {
    store,
    queue: createPgBossQueue({ store, lanes, concurrency, onError }),
    inbox: createPgBossQueue({ store, lanes, lane: 'event', concurrency: 4, pollingSeconds: 0.5, onError }),
  };
}
