// The run store on PostgreSQL (DATABASE_URL), for several machines sharing one store: the same
// contract as the embedded SQLite store, checked by the same conformance suite. Its jobs are held by
// pg-boss (pgboss-queue.ts), whose write for each job is made in the store's own transaction
// (`Dispatch`); the store records what pg-boss decided (`DispatchedJobs`), and, once, hands pg-boss
// the unfinished jobs an older version stored without it (`JobAdoption`). Each concern's SQL is in
// its own module under postgres/.
import type { RunStore } from './run-store.ts';
import { postgresAdoption, type JobAdoption } from './postgres/adopt.ts';
import { postgresAttempts, type DispatchedJobs } from './postgres/attempts.ts';
import { postgresAuditTrail } from './postgres/audit.ts';
import { postgresDeliveries } from './postgres/deliveries.ts';
import { NO_ENGINE, type Dispatch } from './postgres/dispatch.ts';
import { postgresJobs } from './postgres/jobs.ts';
import { openPool } from './postgres/open-pool.ts';
import { postgresSpendLedger } from './postgres/spend.ts';

export { PostgresStoreError } from './postgres/store-error.ts';
export type { AdoptedJob, Dispatch } from './postgres/dispatch.ts';

/** The store's contract, the record of the attempts pg-boss hands jobs to, and the jobs it was never handed. */
export interface PostgresRunStore extends RunStore, DispatchedJobs, JobAdoption {}

/** `dispatch`: pg-boss's write for each job made due (pgboss-lanes.ts); without it, records only (tools, tests). */
export async function openPostgresStore(connectionString: string, dispatch: Dispatch = NO_ENGINE): Promise<PostgresRunStore> {
  const pool = await openPool(connectionString);
  const audit = postgresAuditTrail(pool);
  return {
    ...postgresAttempts(pool, audit),
    ...postgresAdoption(pool, dispatch),
    ...postgresDeliveries(pool, dispatch),
    ...postgresJobs(pool, audit, dispatch),
    ...audit,
    ...postgresSpendLedger(pool),
    async close() {
      await pool.end();
    },
  };
}
