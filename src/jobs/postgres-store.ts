// The run store on PostgreSQL (DATABASE_URL), for several machines sharing one store: the same
// contract as the embedded SQLite store, checked by the same conformance suite. Each concern's SQL is
// in its own module under postgres/.
import type { RunStore } from './run-store.ts';
import { postgresAuditTrail } from './postgres/audit.ts';
import { postgresDeliveries } from './postgres/deliveries.ts';
import { postgresRunDispatch, type RunDispatchStore } from './postgres/dispatch.ts';
import { postgresJobs } from './postgres/jobs.ts';
import { openPool } from './postgres/open-pool.ts';
import { postgresSpendLedger } from './postgres/spend.ts';

export { PostgresStoreError } from './postgres/store-error.ts';

/** What the pg-boss queue needs: the store's contract and run dispatch. */
export interface DispatchedRunStore extends RunStore, RunDispatchStore {}

export async function openPostgresStore(connectionString: string): Promise<DispatchedRunStore> {
  const pool = await openPool(connectionString);
  const audit = postgresAuditTrail(pool);
  return {
    ...postgresRunDispatch(pool, audit),
    ...postgresDeliveries(pool),
    ...postgresJobs(pool, audit),
    ...audit,
    ...postgresSpendLedger(pool),
    async close() {
      await pool.end();
    },
  };
}
