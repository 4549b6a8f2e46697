// Jobs on PostgreSQL, as records: one active job per key (a partial unique index), state, progress,
// cancel requests and outcome; every step of a run in the audit trail. Who holds a job is pg-boss's
// decision (attempts.ts): `lease_owner` names the attempt it handed the job to, the only one that can
// end it or hand it back; the store keeps no lease of its own (`lease_until` stays empty here).
import type pg from 'pg';
import { jobInfo, storedJob, type JobRow } from '../job-row.ts';
import { sqlClient, type Dispatch } from './dispatch.ts';
import { inTransaction } from './open-pool.ts';
import { ACTIVE_STATES, type AuditTrail, type EnqueueOutcome, type JobStore, type NewJob } from '../run-store.ts';

export const ACTIVE_SQL = ACTIVE_STATES.map((s) => `'${s}'`).join(', ');

export function firstRow(pool: pg.Pool) {
  return async (sql: string, params: unknown[]): Promise<JobRow | undefined> => (await pool.query<JobRow>(sql, params)).rows[0];
}

export function postgresJobs(pool: pg.Pool, audit: AuditTrail, dispatch: Dispatch): JobStore {
  const now = () => Date.now();
  return {
    enqueue: (job, actor, deliveryId) => enqueue(pool, audit, dispatch, { job, actor, deliveryId }),
    async markReady(runId, patch) {
      // Ready in the store and due in the engine in one transaction: neither without the other.
      await inTransaction(pool, async (client) => {
        const stored = (
          await client.query<JobRow>(`SELECT * FROM fixloop_jobs WHERE run_id = $1 AND state = 'pending' FOR UPDATE`, [runId])
        ).rows[0];
        if (!stored) return;
        await client.query(`UPDATE fixloop_jobs SET state = 'queued', data = $1 WHERE run_id = $2`, [
          JSON.stringify({ ...(JSON.parse(stored.data) as Record<string, unknown>), ...patch }),
          runId,
        ]);
        await dispatch.ready(sqlClient(client), runId);
      });
    },
    async finish(runId, holder, state, outcome, artifactsDir = null) {
      // The end and its audit record in one transaction: a worker killed between them loses neither.
      await inTransaction(pool, async (client) => {
        const done = await client.query(
          `UPDATE fixloop_jobs SET state = $1, outcome = $2, finished_at = $3, lease_owner = NULL, artifacts_dir = coalesce($4, artifacts_dir) WHERE run_id = $5 AND lease_owner = $6`,
          [state, outcome, now(), artifactsDir, runId, holder],
        );
        if ((done.rowCount ?? 0) === 1 && !runId.startsWith('event-')) {
          await client.query('INSERT INTO fixloop_events (run_id, at, kind, data) VALUES ($1, $2, $3, $4)', [
            runId,
            now(),
            state,
            JSON.stringify({ owner: holder, outcome }),
          ]);
        }
      });
    },
    async release(runId, holder) {
      const released = await pool.query(
        `UPDATE fixloop_jobs SET state = 'queued', lease_owner = NULL WHERE run_id = $1 AND lease_owner = $2 AND state = 'running'`,
        [runId, holder],
      );
      if ((released.rowCount ?? 0) === 1) await audit.append(runId, 'released', { owner: holder });
    },
    async requestCancel(key, by) {
      const cancelled = (
        await pool.query<JobRow>(
          `UPDATE fixloop_jobs SET cancel_requested_by = $1 WHERE key = $2 AND state IN (${ACTIVE_SQL}) RETURNING *`,
          [by, key],
        )
      ).rows[0];
      if (!cancelled) return null;
      await audit.append(cancelled.run_id, 'cancel-requested', { by });
      return jobInfo(cancelled);
    },
    ...postgresJobLookups(pool),
  };
}

/** Stores a run as `pending`, and its job in the engine (held back until the run is ready), in one transaction. */
async function enqueue(
  pool: pg.Pool,
  audit: AuditTrail,
  dispatch: Dispatch,
  { job, actor, deliveryId }: { job: NewJob; actor: string | null; deliveryId: string | null },
): Promise<EnqueueOutcome> {
  const stored = await inTransaction(pool, async (client) => {
    const inserted = await client.query(
      `INSERT INTO fixloop_jobs (run_id, key, state, data, actor, delivery_id, enqueued_at, trigger) VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
      [job.runId, job.key, JSON.stringify(job.data), actor, deliveryId, Date.now(), job.trigger],
    );
    if ((inserted.rowCount ?? 0) === 0) return false;
    await dispatch.stored(sqlClient(client), { runId: job.runId, lane: 'run', pending: true });
    return true;
  });
  if (!stored) {
    const existing = await firstRow(pool)(`SELECT * FROM fixloop_jobs WHERE key = $1 AND state IN (${ACTIVE_SQL})`, [job.key]);
    if (existing) return { accepted: false, active: jobInfo(existing) };
    throw new Error(`run ${job.runId} could not be stored`);
  }
  await audit.append(job.runId, 'queued', { key: job.key, actor, deliveryId, trigger: job.trigger });
  return { accepted: true };
}

/** What the store answers about jobs: the active one of a key, a run, the last run, counts, lists. */
function postgresJobLookups(pool: pg.Pool): Pick<JobStore, 'active' | 'get' | 'lastRun' | 'countRuns' | 'list'> {
  const one = firstRow(pool);
  return {
    async active(key) {
      const found = await one(`SELECT * FROM fixloop_jobs WHERE key = $1 AND state IN (${ACTIVE_SQL})`, [key]);
      return found ? jobInfo(found) : null;
    },
    async get(runId) {
      const found = await one('SELECT * FROM fixloop_jobs WHERE run_id = $1', [runId]);
      return found && found.lane === 'run' ? storedJob(found) : null;
    },
    async lastRun(key) {
      const found = await one(
        `SELECT * FROM fixloop_jobs WHERE lane = 'run' AND key = $1 ORDER BY enqueued_at DESC, seq DESC LIMIT 1`,
        [key],
      );
      return found ? storedJob(found) : null;
    },
    async countRuns(key, trigger) {
      const counted = (
        await pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM fixloop_jobs WHERE lane = 'run' AND key = $1 AND trigger = $2`,
          [key, trigger],
        )
      ).rows[0];
      return Number(counted?.n ?? 0);
    },
    async list(limit, lane = 'run') {
      return (
        await pool.query<JobRow>(`SELECT * FROM fixloop_jobs WHERE lane = $2 ORDER BY enqueued_at DESC, seq DESC LIMIT $1`, [
          limit,
          lane,
        ])
      ).rows.map(jobInfo);
    },
  };
}
