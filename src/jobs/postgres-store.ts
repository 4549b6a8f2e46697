// The run store on PostgreSQL (DATABASE_URL), for several machines sharing one store: the same
// contract as the embedded SQLite store, checked by the same conformance suite. Claims skip rows
// another worker has locked, so many workers can claim at once without waiting on each other.
import pg from 'pg';
import { CodedError } from '../core/coded-error.ts';
import { jobInfo, storedAnyJob, storedJob, type JobRow } from './job-row.ts';
import { ACTIVE_STATES, type AnyStoredJob, type AuditEvent, type EnqueueOutcome, type JobData, type RunStore, type StoredJob } from './run-store.ts';
import { checkSpendArgs } from '../core/spend-ledger.ts';

export class PostgresStoreError extends CodedError<'STORE_UNAVAILABLE'> {}

/** What a queue engine that dispatches runs by id (pg-boss) needs from the store, besides the contract. */
export interface DispatchedRunStore extends RunStore {
  /**
   * Takes a run the engine handed out: queued, or running under a worker whose lease has expired
   * (it died). A run another worker still holds is not taken: a second dispatch of it is dropped.
   */
  claimRun(runId: string, owner: string, leaseMs: number): Promise<StoredJob | null>;
  /** Ends a run the engine gave up on; null when it had already ended. */
  abandon(runId: string, outcome: string): Promise<StoredJob | null>;
  /** Runs ready to claim (to dispatch again what a crash between two writes left undispatched). */
  queuedRunIds(limit: number): Promise<string[]>;
}

/** Versioned migrations, applied under an advisory lock so two processes never race on them. */
const MIGRATIONS = [
  `CREATE TABLE fixloop_jobs (
     seq BIGSERIAL,
     run_id TEXT PRIMARY KEY,
     key TEXT NOT NULL,
     lane TEXT NOT NULL DEFAULT 'run',
     state TEXT NOT NULL,
     data TEXT NOT NULL,
     actor TEXT,
     delivery_id TEXT,
     enqueued_at BIGINT NOT NULL,
     started_at BIGINT,
     finished_at BIGINT,
     lease_owner TEXT,
     lease_until BIGINT,
     tries INTEGER NOT NULL DEFAULT 0,
     progress TEXT NOT NULL DEFAULT 'queued',
     outcome TEXT,
     artifacts_dir TEXT,
     cancel_requested_by TEXT
   );
   CREATE UNIQUE INDEX fixloop_jobs_one_active_per_key ON fixloop_jobs(key) WHERE state IN ('pending', 'queued', 'running');
   CREATE INDEX fixloop_jobs_claimable ON fixloop_jobs(lane, state, enqueued_at, seq);
   CREATE TABLE fixloop_deliveries (id TEXT PRIMARY KEY, event TEXT NOT NULL, received_at BIGINT NOT NULL);
   CREATE TABLE fixloop_events (id BIGSERIAL PRIMARY KEY, run_id TEXT NOT NULL, at BIGINT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
   CREATE INDEX fixloop_events_by_run ON fixloop_events(run_id, id);
   CREATE FUNCTION fixloop_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the audit trail is append-only'; END $$;
   CREATE TRIGGER fixloop_events_append_only BEFORE UPDATE OR DELETE ON fixloop_events FOR EACH ROW EXECUTE FUNCTION fixloop_append_only();`,
  // 2: what LLM engines spent, per repository per UTC day (the daily budgets).
  `CREATE TABLE fixloop_spend (
     repository TEXT NOT NULL,
     day TEXT NOT NULL,
     usd DOUBLE PRECISION NOT NULL DEFAULT 0,
     tokens BIGINT NOT NULL DEFAULT 0,
     PRIMARY KEY (repository, day)
   );`,
];






export async function openPostgresStore(connectionString: string): Promise<DispatchedRunStore> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // A pool error (a connection dropped by the server) must not take the process down.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(4242001)');
      await client.query('CREATE TABLE IF NOT EXISTS fixloop_schema (version INTEGER NOT NULL)');
      const current = (await client.query<{ version: number }>('SELECT version FROM fixloop_schema')).rows[0]?.version ?? 0;
      if (current > MIGRATIONS.length) throw new Error(`the store was written by a newer fixloop (schema ${current}, this one knows ${MIGRATIONS.length})`);
      for (let v = current; v < MIGRATIONS.length; v++) await client.query(MIGRATIONS[v] ?? '');
      await client.query('DELETE FROM fixloop_schema');
      await client.query('INSERT INTO fixloop_schema (version) VALUES ($1)', [MIGRATIONS.length]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    const where = connectionString.replace(/\/\/[^@/]*@/, '//');
    throw new PostgresStoreError('STORE_UNAVAILABLE', `DATABASE_URL: cannot use the run store at ${where}: ${(error as Error).message}`);
  }

  const now = () => Date.now();
  const one = async (sql: string, params: unknown[]): Promise<JobRow | undefined> => (await pool.query<JobRow>(sql, params)).rows[0];
  const append = (runId: string, kind: string, data: Record<string, unknown> = {}) => pool.query('INSERT INTO fixloop_events (run_id, at, kind, data) VALUES ($1, $2, $3, $4)', [runId, now(), kind, JSON.stringify(data)]);
  const active = ACTIVE_STATES.map((s) => `'${s}'`).join(', ');
  const activeFor = (key: string) => one(`SELECT * FROM fixloop_jobs WHERE key = $1 AND state IN (${active})`, [key]);

  return {
    async claimRun(runId, owner, leaseMs) {
      const row = await one(
        `UPDATE fixloop_jobs j SET state = 'running', lease_owner = $2, lease_until = $3, tries = j.tries + 1, started_at = coalesce(j.started_at, $4)
         FROM (SELECT state AS before_state FROM fixloop_jobs WHERE run_id = $1) b
         WHERE j.run_id = $1 AND j.lane = 'run' AND (j.state = 'queued' OR (j.state = 'running' AND j.lease_until < $4)) RETURNING j.*, b.before_state`,
        [runId, owner, now() + leaseMs, now()],
      );
      if (!row) return null;
      if ((row as JobRow & { before_state?: string }).before_state === 'running') await append(runId, 'recovered', { from: 'worker lost' });
      await append(runId, 'claimed', { owner, try: row.tries });
      return storedJob(row);
    },
    async abandon(runId, outcome) {
      const row = await one(`UPDATE fixloop_jobs SET state = 'failed', outcome = $2, finished_at = $3, lease_owner = NULL, lease_until = NULL WHERE run_id = $1 AND state IN (${active}) RETURNING *`, [runId, outcome, now()]);
      if (!row) return null;
      await append(runId, 'failed', { outcome });
      return storedJob(row);
    },
    async queuedRunIds(limit) {
      return (await pool.query<{ run_id: string }>(`SELECT run_id FROM fixloop_jobs WHERE lane = 'run' AND state = 'queued' ORDER BY enqueued_at, seq LIMIT $1`, [limit])).rows.map((r) => r.run_id);
    },
    async recordDelivery(id, event) {
      return ((await pool.query('INSERT INTO fixloop_deliveries (id, event, received_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [id, event, now()])).rowCount ?? 0) === 1;
    },
    async acceptEvent(data) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const fresh = ((await client.query('INSERT INTO fixloop_deliveries (id, event, received_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [data.delivery, data.name, now()])).rowCount ?? 0) === 1;
        if (fresh) {
          await client.query(`INSERT INTO fixloop_jobs (run_id, key, state, data, lane, delivery_id, enqueued_at) VALUES ($1, $2, 'queued', $3, 'event', $4, $5)`, [`event-${data.delivery}`, `event:${data.delivery}`, JSON.stringify(data), data.delivery, now()]);
        }
        await client.query('COMMIT');
        return fresh;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async enqueue(data, actor, deliveryId): Promise<EnqueueOutcome> {
      const inserted = await pool.query(
        `INSERT INTO fixloop_jobs (run_id, key, state, data, actor, delivery_id, enqueued_at) VALUES ($1, $2, 'pending', $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        [data.runId, data.key, JSON.stringify(data), actor, deliveryId, now()],
      );
      if ((inserted.rowCount ?? 0) === 0) {
        const existing = await activeFor(data.key);
        if (existing) return { accepted: false, active: jobInfo(existing) };
        throw new Error(`run ${data.runId} could not be stored`);
      }
      await append(data.runId, 'queued', { key: data.key, actor, deliveryId, trigger: data.plan.kind });
      return { accepted: true };
    },
    async markReady(runId, patch) {
      const row = await one('SELECT * FROM fixloop_jobs WHERE run_id = $1', [runId]);
      if (!row) return;
      await pool.query(`UPDATE fixloop_jobs SET state = 'queued', data = $1 WHERE run_id = $2 AND state = 'pending'`, [JSON.stringify({ ...(JSON.parse(row.data) as JobData), ...patch }), runId]);
    },
    async claim(owner, leaseMs, lane = 'run') {
      const row = await one(
        `UPDATE fixloop_jobs SET state = 'running', lease_owner = $1, lease_until = $2, tries = tries + 1, started_at = coalesce(started_at, $3)
         WHERE run_id = (SELECT run_id FROM fixloop_jobs WHERE lane = $4 AND state = 'queued' ORDER BY enqueued_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING *`,
        [owner, now() + leaseMs, now(), lane],
      );
      if (!row) return null;
      if (row.lane === 'run') await append(row.run_id, 'claimed', { owner, try: row.tries });
      return storedAnyJob(row);
    },
    async heartbeat(runId, owner, leaseMs, progress) {
      const row = await one(`UPDATE fixloop_jobs SET lease_until = $1, progress = coalesce($2, progress) WHERE run_id = $3 AND lease_owner = $4 AND state = 'running' RETURNING cancel_requested_by`, [now() + leaseMs, progress ?? null, runId, owner]);
      return row ? { cancelRequestedBy: row.cancel_requested_by } : null;
    },
    async finish(runId, owner, state, outcome, artifactsDir = null) {
      const done = await pool.query(
        `UPDATE fixloop_jobs SET state = $1, outcome = $2, finished_at = $3, lease_owner = NULL, lease_until = NULL, artifacts_dir = coalesce($4, artifacts_dir) WHERE run_id = $5 AND lease_owner = $6`,
        [state, outcome, now(), artifactsDir, runId, owner],
      );
      if ((done.rowCount ?? 0) === 1 && !runId.startsWith('event-')) await append(runId, state, { owner, outcome });
    },
    async release(runId, owner) {
      const released = await pool.query(`UPDATE fixloop_jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL, tries = greatest(tries - 1, 0) WHERE run_id = $1 AND lease_owner = $2 AND state = 'running'`, [runId, owner]);
      if ((released.rowCount ?? 0) === 1) await append(runId, 'released', { owner });
    },
    async recover(maxTries, pendingMs) {
      const requeued: AnyStoredJob[] = [];
      const abandoned: AnyStoredJob[] = [];
      const at = now();
      for (const row of (await pool.query<JobRow>(`UPDATE fixloop_jobs SET state = 'queued' WHERE state = 'pending' AND enqueued_at < $1 RETURNING *`, [at - pendingMs])).rows) {
        await append(row.run_id, 'recovered', { from: 'pending' });
        requeued.push(storedAnyJob(row));
      }
      const requeue = await pool.query<JobRow>(`UPDATE fixloop_jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL WHERE state = 'running' AND lease_until < $1 AND tries < $2 RETURNING *`, [at, maxTries]);
      for (const row of requeue.rows) {
        await append(row.run_id, 'recovered', { from: 'expired lease', tries: row.tries });
        requeued.push(storedAnyJob(row));
      }
      const giveUp = await pool.query<JobRow>(
        `UPDATE fixloop_jobs SET state = 'failed', outcome = 'the worker running it stopped ' || tries || ' time(s) without finishing', finished_at = $1, lease_owner = NULL, lease_until = NULL
         WHERE state = 'running' AND lease_until < $1 AND tries >= $2 RETURNING *`,
        [at, maxTries],
      );
      for (const row of giveUp.rows) {
        await append(row.run_id, 'failed', { outcome: row.outcome });
        abandoned.push(storedAnyJob(row));
      }
      return { requeued, abandoned };
    },
    async requestCancel(key, by) {
      const row = await one(`UPDATE fixloop_jobs SET cancel_requested_by = $1 WHERE key = $2 AND state IN (${active}) RETURNING *`, [by, key]);
      if (!row) return null;
      await append(row.run_id, 'cancel-requested', { by });
      return jobInfo(row);
    },
    async active(key) {
      const row = await activeFor(key);
      return row ? jobInfo(row) : null;
    },
    async get(runId) {
      const row = await one('SELECT * FROM fixloop_jobs WHERE run_id = $1', [runId]);
      return row && row.lane === 'run' ? storedJob(row) : null;
    },
    async lastRun(key) {
      const row = await one(`SELECT * FROM fixloop_jobs WHERE lane = 'run' AND key = $1 ORDER BY enqueued_at DESC, seq DESC LIMIT 1`, [key]);
      return row ? storedJob(row) : null;
    },
    async countRuns(key, trigger) {
      const row = (await pool.query<{ n: string }>(`SELECT count(*) AS n FROM fixloop_jobs WHERE lane = 'run' AND key = $1 AND (data::jsonb #>> '{plan,kind}') = $2`, [key, trigger])).rows[0];
      return Number(row?.n ?? 0);
    },
    async list(limit) {
      return (await pool.query<JobRow>(`SELECT * FROM fixloop_jobs WHERE lane = 'run' ORDER BY enqueued_at DESC, seq DESC LIMIT $1`, [limit])).rows.map(jobInfo);
    },
    async append(runId, kind, data = {}) {
      await append(runId, kind, data);
    },
    async events(runId): Promise<AuditEvent[]> {
      const rows = (await pool.query<{ run_id: string; at: string; kind: string; data: string }>('SELECT run_id, at, kind, data FROM fixloop_events WHERE run_id = $1 ORDER BY id', [runId])).rows;
      return rows.map((e) => ({ runId: e.run_id, at: Number(e.at), kind: e.kind, data: JSON.parse(e.data) as Record<string, unknown> }));
    },
    async addSpend(repository, day, spend) {
      checkSpendArgs(repository, day, spend);
      // One upsert: the row lock makes concurrent adds from any process wait for each other, none lost.
      await pool.query(
        `INSERT INTO fixloop_spend (repository, day, usd, tokens) VALUES ($1, $2, $3, $4)
         ON CONFLICT (repository, day) DO UPDATE SET usd = fixloop_spend.usd + excluded.usd, tokens = fixloop_spend.tokens + excluded.tokens`,
        [repository, day, spend.usd, spend.tokens],
      );
    },
    async spentOn(repository, day) {
      checkSpendArgs(repository, day);
      // pg returns BIGINT as a string (it may exceed 2^53); a day's tokens do not.
      const row = (await pool.query<{ usd: number; tokens: string }>('SELECT usd, tokens FROM fixloop_spend WHERE repository = $1 AND day = $2', [repository, day])).rows[0];
      return row ? { usd: Number(row.usd), tokens: Number(row.tokens) } : { usd: 0, tokens: 0 };
    },
    async close() {
      await pool.end();
    },
  };
}
