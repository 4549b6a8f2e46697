// Jobs and leases on PostgreSQL: one active job per key (a partial unique index), claims that skip
// rows another worker has locked (`FOR UPDATE SKIP LOCKED`), heartbeats, and recovery of what a dead
// worker held. Every step of a run is recorded in the audit trail.
import type pg from 'pg';
import { jobInfo, storedJob, type JobRow } from '../job-row.ts';
import { inTransaction } from './open-pool.ts';
import { ACTIVE_STATES, type AuditTrail, type EnqueueOutcome, type JobStore, type StoredJob } from '../run-store.ts';

export const ACTIVE_SQL = ACTIVE_STATES.map((s) => `'${s}'`).join(', ');

export function firstRow(pool: pg.Pool) {
  return async (sql: string, params: unknown[]): Promise<JobRow | undefined> => (await pool.query<JobRow>(sql, params)).rows[0];
}

export function postgresJobs(pool: pg.Pool, audit: AuditTrail): JobStore {
  const one = firstRow(pool);
  const now = () => Date.now();
  const activeFor = (key: string) => one(`SELECT * FROM fixloop_jobs WHERE key = $1 AND state IN (${ACTIVE_SQL})`, [key]);
  return {
    async enqueue(job, actor, deliveryId): Promise<EnqueueOutcome> {
      const inserted = await pool.query(
        `INSERT INTO fixloop_jobs (run_id, key, state, data, actor, delivery_id, enqueued_at, trigger) VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [job.runId, job.key, JSON.stringify(job.data), actor, deliveryId, now(), job.trigger],
      );
      if ((inserted.rowCount ?? 0) === 0) {
        const existing = await activeFor(job.key);
        if (existing) return { accepted: false, active: jobInfo(existing) };
        throw new Error(`run ${job.runId} could not be stored`);
      }
      await audit.append(job.runId, 'queued', { key: job.key, actor, deliveryId, trigger: job.trigger });
      return { accepted: true };
    },
    async markReady(runId, patch) {
      const stored = await one('SELECT * FROM fixloop_jobs WHERE run_id = $1', [runId]);
      if (!stored) return;
      await pool.query(`UPDATE fixloop_jobs SET state = 'queued', data = $1 WHERE run_id = $2 AND state = 'pending'`, [
        JSON.stringify({ ...(JSON.parse(stored.data) as Record<string, unknown>), ...patch }),
        runId,
      ]);
    },
    async claim(owner, leaseMs, lane = 'run') {
      const claimed = await one(
        `UPDATE fixloop_jobs SET state = 'running', lease_owner = $1, lease_until = $2, tries = tries + 1, started_at = coalesce(started_at, $3)
         WHERE run_id = (SELECT run_id FROM fixloop_jobs WHERE lane = $4 AND state = 'queued' ORDER BY enqueued_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING *`,
        [owner, now() + leaseMs, now(), lane],
      );
      if (!claimed) return null;
      if (claimed.lane === 'run') await audit.append(claimed.run_id, 'claimed', { owner, try: claimed.tries });
      return storedJob(claimed);
    },
    async heartbeat(runId, owner, leaseMs, progress) {
      const answer = await one(
        `UPDATE fixloop_jobs SET lease_until = $1, progress = coalesce($2, progress) WHERE run_id = $3 AND lease_owner = $4 AND state = 'running' RETURNING cancel_requested_by`,
        [now() + leaseMs, progress ?? null, runId, owner],
      );
      return answer ? { cancelRequestedBy: answer.cancel_requested_by } : null;
    },
    async finish(runId, owner, state, outcome, artifactsDir = null) {
      // The end and its audit record in one transaction: a worker killed between them loses neither.
      await inTransaction(pool, async (client) => {
        const done = await client.query(
          `UPDATE fixloop_jobs SET state = $1, outcome = $2, finished_at = $3, lease_owner = NULL, lease_until = NULL, artifacts_dir = coalesce($4, artifacts_dir) WHERE run_id = $5 AND lease_owner = $6`,
          [state, outcome, now(), artifactsDir, runId, owner],
        );
        if ((done.rowCount ?? 0) === 1 && !runId.startsWith('event-')) {
          await client.query('INSERT INTO fixloop_events (run_id, at, kind, data) VALUES ($1, $2, $3, $4)', [
            runId,
            now(),
            state,
            JSON.stringify({ owner, outcome }),
          ]);
        }
      });
    },
    async release(runId, owner) {
      const released = await pool.query(
        `UPDATE fixloop_jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL, tries = greatest(tries - 1, 0) WHERE run_id = $1 AND lease_owner = $2 AND state = 'running'`,
        [runId, owner],
      );
      if ((released.rowCount ?? 0) === 1) await audit.append(runId, 'released', { owner });
    },
    recover: (maxTries, pendingMs) => recover(pool, audit, maxTries, pendingMs),
    async requestCancel(key, by) {
      const cancelled = await one(
        `UPDATE fixloop_jobs SET cancel_requested_by = $1 WHERE key = $2 AND state IN (${ACTIVE_SQL}) RETURNING *`,
        [by, key],
      );
      if (!cancelled) return null;
      await audit.append(cancelled.run_id, 'cancel-requested', { by });
      return jobInfo(cancelled);
    },
    async active(key) {
      const found = await activeFor(key);
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

async function recover(
  pool: pg.Pool,
  audit: AuditTrail,
  maxTries: number,
  pendingMs: number,
): Promise<{ requeued: StoredJob[]; abandoned: StoredJob[] }> {
  const requeued: StoredJob[] = [];
  const abandoned: StoredJob[] = [];
  const at = Date.now();
  for (const row of (
    await pool.query<JobRow>(
      `UPDATE fixloop_jobs SET state = 'queued' WHERE state = 'pending' AND enqueued_at < $1 RETURNING *`,
      [at - pendingMs],
    )
  ).rows) {
    await audit.append(row.run_id, 'recovered', { from: 'pending' });
    requeued.push(storedJob(row));
  }
  const requeue = await pool.query<JobRow>(
    `UPDATE fixloop_jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL WHERE state = 'running' AND lease_until < $1 AND tries < $2 RETURNING *`,
    [at, maxTries],
  );
  for (const row of requeue.rows) {
    await audit.append(row.run_id, 'recovered', { from: 'expired lease', tries: row.tries });
    requeued.push(storedJob(row));
  }
  const giveUp = await pool.query<JobRow>(
    `UPDATE fixloop_jobs SET state = 'failed', outcome = 'the worker running it stopped ' || tries || ' time(s) without finishing', finished_at = $1, lease_owner = NULL, lease_until = NULL
     WHERE state = 'running' AND lease_until < $1 AND tries >= $2 RETURNING *`,
    [at, maxTries],
  );
  for (const row of giveUp.rows) {
    await audit.append(row.run_id, 'failed', { outcome: row.outcome });
    abandoned.push(storedJob(row));
  }
  return { requeued, abandoned };
}
