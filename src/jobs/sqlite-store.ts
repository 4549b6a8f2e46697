// The embedded run store: SQLite (Node's own node:sqlite) in WAL mode, in the data directory. No
// service to install; several processes on one machine may share the file (each statement that
// claims or changes a job is atomic, and SQLite serializes writers).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as Sqlite from 'node:sqlite';
import type { DatabaseSync as Database } from 'node:sqlite';
import { CodedError } from '../core/coded-error.ts';
import { jobInfo, storedAnyJob, storedJob, type JobRow } from './job-row.ts';
import { ACTIVE_STATES, type AuditEvent, type EnqueueOutcome, type AnyStoredJob, type EventData, type JobData, type RunStore } from './run-store.ts';
import { checkSpendArgs } from '../core/spend-ledger.ts';

export class StoreError extends CodedError<'STORE_UNAVAILABLE' | 'STORE_CORRUPT'> {}

/** Versioned migrations: index i brings the schema from version i to i + 1. Never edit one; add one. */
const MIGRATIONS = [
  `CREATE TABLE jobs (
     run_id TEXT PRIMARY KEY,
     key TEXT NOT NULL,
     state TEXT NOT NULL,
     data TEXT NOT NULL,
     actor TEXT,
     delivery_id TEXT,
     enqueued_at INTEGER NOT NULL,
     started_at INTEGER,
     finished_at INTEGER,
     lease_owner TEXT,
     lease_until INTEGER,
     tries INTEGER NOT NULL DEFAULT 0,
     progress TEXT NOT NULL DEFAULT 'queued',
     outcome TEXT,
     artifacts_dir TEXT,
     cancel_requested_by TEXT
   );
   -- One active run per issue or pull request, enforced by the database itself.
   CREATE UNIQUE INDEX jobs_one_active_per_key ON jobs(key) WHERE state IN ('pending', 'queued', 'running');
   CREATE INDEX jobs_claimable ON jobs(state, enqueued_at);
   CREATE TABLE deliveries (id TEXT PRIMARY KEY, event TEXT NOT NULL, received_at INTEGER NOT NULL);
   CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, at INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
   CREATE INDEX events_by_run ON events(run_id, id);
   CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
   CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;`,
  // 2: webhook deliveries are stored as jobs of their own lane before they are answered.
  `ALTER TABLE jobs ADD COLUMN lane TEXT NOT NULL DEFAULT 'run';
   DROP INDEX jobs_claimable;
   CREATE INDEX jobs_claimable ON jobs(lane, state, enqueued_at);`,
  // 3: what LLM engines spent, per repository per UTC day (the daily budgets).
  `CREATE TABLE spend (
     repository TEXT NOT NULL,
     day TEXT NOT NULL,
     usd REAL NOT NULL DEFAULT 0,
     tokens INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (repository, day)
   );`,
];


/** node:sqlite still announces itself as experimental on Node 24; that line is not for users. */
async function loadSqlite(): Promise<typeof Sqlite> {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('SQLite is an experimental feature')) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return await import('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
}




/** `dataDir` = null keeps everything in memory (tests, and one-off CLI runs). */
export async function openSqliteStore(dataDir: string | null): Promise<RunStore> {
  const { DatabaseSync } = await loadSqlite();
  let db: Database;
  const file = dataDir === null ? ':memory:' : join(dataDir, 'fixloop.db');
  try {
    if (dataDir !== null) mkdirSync(dataDir, { recursive: true });
    db = new DatabaseSync(file);
  } catch (error) {
    throw new StoreError('STORE_UNAVAILABLE', `FIXLOOP_DATA_DIR: cannot open the run store ${file}: ${(error as Error).message}`);
  }
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;');
    const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    if (version > MIGRATIONS.length) throw new Error(`it was written by a newer fixloop (schema ${version}, this one knows ${MIGRATIONS.length})`);
    for (let v = version; v < MIGRATIONS.length; v++) {
      db.exec('BEGIN IMMEDIATE');
      try {
        db.exec(MIGRATIONS[v] ?? '');
        db.exec(`PRAGMA user_version = ${v + 1}`);
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    }
    db.prepare('SELECT count(*) FROM jobs').get();
  } catch (error) {
    db.close();
    throw new StoreError('STORE_CORRUPT', `FIXLOOP_DATA_DIR: the run store ${file} cannot be used: ${(error as Error).message}. Move it aside to start with an empty one (runs recorded in it are then forgotten).`);
  }

  const active = ACTIVE_STATES.map((s) => `'${s}'`).join(', ');
  const q = {
    delivery: db.prepare('INSERT INTO deliveries (id, event, received_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING'),
    insert: db.prepare(`INSERT INTO jobs (run_id, key, state, data, actor, delivery_id, enqueued_at) VALUES (?, ?, 'pending', ?, ?, ?, ?)`),
    activeFor: db.prepare(`SELECT * FROM jobs WHERE key = ? AND state IN (${active})`),
    ready: db.prepare(`UPDATE jobs SET state = 'queued', data = ? WHERE run_id = ? AND state = 'pending'`),
    claim: db.prepare(
      `UPDATE jobs SET state = 'running', lease_owner = ?, lease_until = ?, tries = tries + 1, started_at = coalesce(started_at, ?)
       WHERE run_id = (SELECT run_id FROM jobs WHERE lane = ? AND state = 'queued' ORDER BY enqueued_at, rowid LIMIT 1) RETURNING *`,
    ),
    heartbeat: db.prepare(`UPDATE jobs SET lease_until = ?, progress = coalesce(?, progress) WHERE run_id = ? AND lease_owner = ? AND state = 'running' RETURNING cancel_requested_by`),
    finish: db.prepare(`UPDATE jobs SET state = ?, outcome = ?, finished_at = ?, lease_owner = NULL, lease_until = NULL, artifacts_dir = coalesce(?, artifacts_dir) WHERE run_id = ? AND lease_owner = ?`),
    release: db.prepare(`UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL, tries = max(tries - 1, 0) WHERE run_id = ? AND lease_owner = ? AND state = 'running'`),
    expired: db.prepare(`SELECT * FROM jobs WHERE state = 'running' AND lease_until < ?`),
    requeue: db.prepare(`UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL WHERE run_id = ? AND state = 'running' AND lease_until < ?`),
    abandon: db.prepare(`UPDATE jobs SET state = 'failed', outcome = ?, finished_at = ?, lease_owner = NULL, lease_until = NULL WHERE run_id = ? AND state = 'running' AND lease_until < ?`),
    stalePending: db.prepare(`UPDATE jobs SET state = 'queued' WHERE state = 'pending' AND enqueued_at < ? RETURNING *`),
    cancel: db.prepare(`UPDATE jobs SET cancel_requested_by = ? WHERE key = ? AND state IN (${active}) RETURNING *`),
    get: db.prepare(`SELECT * FROM jobs WHERE run_id = ? AND lane = 'run'`),
    list: db.prepare(`SELECT * FROM jobs WHERE lane = 'run' ORDER BY enqueued_at DESC, rowid DESC LIMIT ?`),
    lastRun: db.prepare(`SELECT * FROM jobs WHERE lane = 'run' AND key = ? ORDER BY enqueued_at DESC, rowid DESC LIMIT 1`),
    countRuns: db.prepare(`SELECT count(*) AS n FROM jobs WHERE lane = 'run' AND key = ? AND json_extract(data, '$.plan.kind') = ?`),
    insertEvent: db.prepare(`INSERT INTO jobs (run_id, key, state, data, lane, delivery_id, enqueued_at) VALUES (?, ?, 'queued', ?, 'event', ?, ?)`),
    append: db.prepare('INSERT INTO events (run_id, at, kind, data) VALUES (?, ?, ?, ?)'),
    events: db.prepare('SELECT run_id, at, kind, data FROM events WHERE run_id = ? ORDER BY id'),
    // One statement: atomic, and SQLite serializes writers, so no increment is lost between processes.
    addSpend: db.prepare(
      `INSERT INTO spend (repository, day, usd, tokens) VALUES (?, ?, ?, ?)
       ON CONFLICT (repository, day) DO UPDATE SET usd = spend.usd + excluded.usd, tokens = spend.tokens + excluded.tokens`,
    ),
    spentOn: db.prepare('SELECT usd, tokens FROM spend WHERE repository = ? AND day = ?'),
  };
  const now = () => Date.now();
  const appendNow = (runId: string, kind: string, data: Record<string, unknown> = {}) => q.append.run(runId, now(), kind, JSON.stringify(data));

  return {
    async recordDelivery(id, event) {
      return Number(q.delivery.run(id, event, now()).changes) === 1;
    },
    async acceptEvent(data: EventData) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const fresh = Number(q.delivery.run(data.delivery, data.name, now()).changes) === 1;
        if (fresh) q.insertEvent.run(`event-${data.delivery}`, `event:${data.delivery}`, JSON.stringify(data), data.delivery, now());
        db.exec('COMMIT');
        return fresh;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    async enqueue(data: JobData, actor, deliveryId): Promise<EnqueueOutcome> {
      try {
        q.insert.run(data.runId, data.key, JSON.stringify(data), actor, deliveryId, now());
      } catch (error) {
        const existing = q.activeFor.get(data.key) as JobRow | undefined;
        if (existing) return { accepted: false, active: jobInfo(existing) };
        throw error;
      }
      appendNow(data.runId, 'queued', { key: data.key, actor, deliveryId, trigger: data.plan.kind });
      return { accepted: true };
    },
    async markReady(runId, patch) {
      const row = q.get.get(runId) as JobRow | undefined;
      if (!row) return;
      q.ready.run(JSON.stringify({ ...(JSON.parse(row.data) as JobData), ...patch }), runId);
    },
    async claim(owner, leaseMs, lane = 'run') {
      const row = q.claim.get(owner, now() + leaseMs, now(), lane) as (JobRow & { lane: string }) | undefined;
      if (!row) return null;
      // Deliveries are not runs: their trail is the delivery table; runs get every step recorded.
      if (row.lane === 'run') appendNow(row.run_id, 'claimed', { owner, try: row.tries });
      return storedAnyJob(row);
    },
    async heartbeat(runId, owner, leaseMs, progress) {
      const row = q.heartbeat.get(now() + leaseMs, progress ?? null, runId, owner) as { cancel_requested_by: string | null } | undefined;
      return row ? { cancelRequestedBy: row.cancel_requested_by } : null;
    },
    async finish(runId, owner, state, outcome, artifactsDir = null) {
      if (Number(q.finish.run(state, outcome, now(), artifactsDir, runId, owner).changes) === 1 && !runId.startsWith('event-')) appendNow(runId, state, { owner, outcome });
    },
    async release(runId, owner) {
      if (Number(q.release.run(runId, owner).changes) === 1) appendNow(runId, 'released', { owner });
    },
    async recover(maxTries, pendingMs) {
      const requeued: AnyStoredJob[] = [];
      const abandoned: AnyStoredJob[] = [];
      const at = now();
      for (const row of q.stalePending.all(at - pendingMs) as unknown as JobRow[]) {
        appendNow(row.run_id, 'recovered', { from: 'pending' });
        requeued.push(storedAnyJob({ ...row, state: 'queued' }));
      }
      for (const row of q.expired.all(at) as unknown as JobRow[]) {
        if (row.tries < maxTries) {
          if (Number(q.requeue.run(row.run_id, at).changes) === 1) {
            appendNow(row.run_id, 'recovered', { from: 'expired lease', tries: row.tries });
            requeued.push(storedAnyJob({ ...row, state: 'queued' }));
          }
        } else {
          const outcome = `the worker running it stopped ${row.tries} time(s) without finishing`;
          if (Number(q.abandon.run(outcome, at, row.run_id, at).changes) === 1) {
            appendNow(row.run_id, 'failed', { outcome });
            abandoned.push(storedAnyJob({ ...row, state: 'failed', outcome }));
          }
        }
      }
      return { requeued, abandoned };
    },
    async requestCancel(key, by) {
      const row = q.cancel.get(by, key) as JobRow | undefined;
      if (!row) return null;
      appendNow(row.run_id, 'cancel-requested', { by });
      return jobInfo(row);
    },
    async active(key) {
      const row = q.activeFor.get(key) as JobRow | undefined;
      return row ? jobInfo(row) : null;
    },
    async get(runId) {
      const row = q.get.get(runId) as JobRow | undefined;
      return row ? storedJob(row) : null;
    },
    async lastRun(key) {
      const row = q.lastRun.get(key) as JobRow | undefined;
      return row ? storedJob(row) : null;
    },
    async countRuns(key, trigger) {
      return Number((q.countRuns.get(key, trigger) as { n: number }).n);
    },
    async list(limit) {
      return (q.list.all(limit) as unknown as JobRow[]).map(jobInfo);
    },
    async append(runId, kind, data = {}) {
      appendNow(runId, kind, data);
    },
    async events(runId): Promise<AuditEvent[]> {
      return (q.events.all(runId) as unknown as Array<{ run_id: string; at: number; kind: string; data: string }>).map((e) => ({ runId: e.run_id, at: e.at, kind: e.kind, data: JSON.parse(e.data) as Record<string, unknown> }));
    },
    async addSpend(repository, day, spend) {
      checkSpendArgs(repository, day, spend);
      q.addSpend.run(repository, day, spend.usd, spend.tokens);
    },
    async spentOn(repository, day) {
      checkSpendArgs(repository, day);
      const row = q.spentOn.get(repository, day) as { usd: number; tokens: number } | undefined;
      return row ? { usd: Number(row.usd), tokens: Number(row.tokens) } : { usd: 0, tokens: 0 };
    },
    async close() {
      db.close();
    },
  };
}
