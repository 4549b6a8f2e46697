// The embedded run store: SQLite (Node's own node:sqlite) in WAL mode, in the data directory. No
// service to install; several processes on one machine may share the file (each statement that
// claims or changes a job is atomic, and SQLite serializes writers). Each concern's SQL is in its
// own module under sqlite/.
import type { LeasedRunStore } from './run-store.ts';
import { sqliteAuditTrail } from './sqlite/audit.ts';
import { sqliteDeliveries } from './sqlite/deliveries.ts';
import { sqliteJobs } from './sqlite/jobs.ts';
import { openDatabase } from './sqlite/open-database.ts';
import { sqliteSpendLedger } from './sqlite/spend.ts';

export { StoreError } from './sqlite/open-database.ts';

/** `dataDir` = null keeps everything in memory (tests, and one-off CLI runs). */
export async function openSqliteStore(dataDir: string | null): Promise<LeasedRunStore> {
  const db = await openDatabase(dataDir);
  const { appendNow, ...audit } = sqliteAuditTrail(db);
  return {
    ...sqliteDeliveries(db),
    ...sqliteJobs(db, appendNow),
    ...audit,
    ...sqliteSpendLedger(db),
    async close() {
      db.close();
    },
  };
}
