// What the PostgreSQL store records of the decisions of the queue engine that holds its jobs
// (pg-boss decides who holds a job, for how long, its retries and its give-up): which attempt holds a
// job (the only one that can end it or hand it back), what that attempt reports, and the end of a job
// the engine gave up on.
import type pg from 'pg';
import { storedJob, type JobRow } from '../job-row.ts';
import type { AuditTrail, StoredJob } from '../run-store.ts';
import { ACTIVE_SQL, firstRow } from './jobs.ts';

export interface DispatchedJobs {
  /**
   * Records that the engine handed the job to `holder`, its try `tries`: running, whatever held it
   * before (a worker the engine took to be dead) no longer does. Null when the job has ended.
   */
  begin(runId: string, holder: string, tries: number): Promise<StoredJob | null>;
  /** Saves the holder's progress and answers the job's cancel request; null when `holder` no longer holds it. */
  report(runId: string, holder: string, progress?: string): Promise<{ cancelRequestedBy: string | null } | null>;
  /** Ends a job the engine gave up on, failed with `outcome`; null when it had ended. */
  giveUp(runId: string, outcome: string): Promise<StoredJob | null>;
}

export function postgresAttempts(pool: pg.Pool, audit: AuditTrail): DispatchedJobs {
  const one = firstRow(pool);
  const now = () => Date.now();
  return {
    async begin(runId, holder, tries) {
      const row = (await one(
        `UPDATE fixloop_jobs j SET state = 'running', lease_owner = $2, tries = $3, started_at = coalesce(j.started_at, $4)
         FROM (SELECT state AS before_state FROM fixloop_jobs WHERE run_id = $1) b
         WHERE j.run_id = $1 AND j.state IN (${ACTIVE_SQL}) RETURNING j.*, b.before_state`,
        [runId, holder, tries, now()],
      )) as (JobRow & { before_state: string }) | undefined;
      if (!row) return null;
      // Deliveries are not runs: their trail is the delivery table; runs get every step recorded.
      if (row.lane === 'run') {
        if (row.before_state !== 'queued')
          await audit.append(runId, 'recovered', { from: row.before_state === 'running' ? 'worker lost' : 'pending' });
        await audit.append(runId, 'claimed', { owner: holder, try: tries });
      }
      return storedJob(row);
    },
    async report(runId, holder, progress) {
      const answer = await one(
        `UPDATE fixloop_jobs SET progress = coalesce($1, progress) WHERE run_id = $2 AND lease_owner = $3 AND state = 'running' RETURNING cancel_requested_by`,
        [progress ?? null, runId, holder],
      );
      return answer ? { cancelRequestedBy: answer.cancel_requested_by } : null;
    },
    async giveUp(runId, outcome) {
      const row = await one(
        `UPDATE fixloop_jobs SET state = 'failed', outcome = $2, finished_at = $3, lease_owner = NULL WHERE run_id = $1 AND state IN (${ACTIVE_SQL}) RETURNING *`,
        [runId, outcome, now()],
      );
      if (!row) return null;
      await audit.append(runId, 'failed', { outcome });
      return storedJob(row);
    },
  };
}
