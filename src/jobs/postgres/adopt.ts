// The jobs a store written before pg-boss carried both lanes left unfinished (schema 3 and older:
// deliveries held by the store's own leases, runs given to pg-boss only once ready) are handed to the
// queue engine once. The migration to schema 4 marked them; the first queue to start takes the marks
// under the schema's advisory lock, in one transaction with the engine's writes: each marked job
// gets its engine job (or keeps the one it had) and its mark goes, or nothing changes at all.
import type pg from 'pg';
import type { JobRow } from '../job-row.ts';
import type { Lane } from '../run-store.ts';
import { sqlClient, type Dispatch } from './dispatch.ts';
import { ACTIVE_SQL } from './jobs.ts';
import { inTransaction, SCHEMA_LOCK } from './open-pool.ts';

export interface JobAdoption {
  /** Hands the engine the unfinished jobs an older schema left; after the first time, a look at an empty table. */
  adoptStored(): Promise<void>;
}

type MarkedRow = JobRow & { lease_until: number | string | null };

export function postgresAdoption(pool: pg.Pool, dispatch: Dispatch): JobAdoption {
  return {
    async adoptStored() {
      if ((await pool.query('SELECT 1 FROM fixloop_unadopted LIMIT 1')).rowCount === 0) return;
      await inTransaction(pool, async (client) => {
        // Another process starting at the same time waits here, then finds no mark left.
        await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
        // Locked: a run made ready or begun meanwhile waits for its engine job to exist.
        const rows = (
          await client.query<MarkedRow>(
            `SELECT j.* FROM fixloop_unadopted u JOIN fixloop_jobs j USING (run_id)
             WHERE j.state IN (${ACTIVE_SQL}) ORDER BY j.enqueued_at, j.seq FOR UPDATE OF j`,
          )
        ).rows;
        const db = sqlClient(client);
        for (const row of rows) {
          await dispatch.adopted(db, {
            runId: row.run_id,
            lane: (row.lane ?? 'run') as Lane,
            pending: row.state === 'pending',
            heldUntil: row.state === 'running' && row.lease_until !== null ? Number(row.lease_until) : null,
            tries: row.tries,
          });
        }
        // pg-boss holds them now: the store keeps no lease of its own (postgres/jobs.ts).
        await client.query('UPDATE fixloop_jobs SET lease_until = NULL WHERE run_id = ANY($1)', [rows.map((r) => r.run_id)]);
        await client.query('DELETE FROM fixloop_unadopted');
      });
    },
  };
}
