// What a queue engine that dispatches runs by id (pg-boss) needs from the PostgreSQL store, besides
// the contract: taking a dispatched run, ending one given up, and finding runs to dispatch again.
import type pg from 'pg';
import { storedJob, type JobRow } from '../job-row.ts';
import type { AuditTrail, StoredJob } from '../run-store.ts';
import { ACTIVE_SQL, firstRow } from './jobs.ts';

export interface RunDispatchStore {
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

export function postgresRunDispatch(pool: pg.Pool, audit: AuditTrail): RunDispatchStore {
  const one = firstRow(pool);
  const now = () => Date.now();
  return {
    async claimRun(runId, owner, leaseMs) {
      const row = await one(
        `UPDATE fixloop_jobs j SET state = 'running', lease_owner = $2, lease_until = $3, tries = j.tries + 1, started_at = coalesce(j.started_at, $4)
         FROM (SELECT state AS before_state FROM fixloop_jobs WHERE run_id = $1) b
         WHERE j.run_id = $1 AND j.lane = 'run' AND (j.state = 'queued' OR (j.state = 'running' AND j.lease_until < $4)) RETURNING j.*, b.before_state`,
        [runId, owner, now() + leaseMs, now()],
      );
      if (!row) return null;
      if ((row as JobRow & { before_state?: string }).before_state === 'running')
        await audit.append(runId, 'recovered', { from: 'worker lost' });
      await audit.append(runId, 'claimed', { owner, try: row.tries });
      return storedJob(row);
    },
    async abandon(runId, outcome) {
      const row = await one(
        `UPDATE fixloop_jobs SET state = 'failed', outcome = $2, finished_at = $3, lease_owner = NULL, lease_until = NULL WHERE run_id = $1 AND state IN (${ACTIVE_SQL}) RETURNING *`,
        [runId, outcome, now()],
      );
      if (!row) return null;
      await audit.append(runId, 'failed', { outcome });
      return storedJob(row);
    },
    async queuedRunIds(limit) {
      return (
        await pool.query<{ run_id: string }>(
          `SELECT run_id FROM fixloop_jobs WHERE lane = 'run' AND state = 'queued' ORDER BY enqueued_at, seq LIMIT $1`,
          [limit],
        )
      ).rows.map((r) => r.run_id);
    },
  };
}
