// The queue engine's write (pg-boss's) for each job the PostgreSQL store makes due, done in the
// store's own transaction: a stored job and the engine's job exist together or not at all, so no
// job is ever stored that no worker will be handed, and nothing needs to be dispatched again later.
import type pg from 'pg';
import type { Lane } from '../run-store.ts';

/** A connection inside the store's transaction, in the shape pg-boss takes as its `db`. */
export interface SqlClient {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export function sqlClient(client: pg.PoolClient): SqlClient {
  return { executeSql: (text, values) => client.query(text, values) };
}

/** What the engine writes, in the store's transaction, when a job becomes due or will. */
export interface Dispatch {
  /** A job just stored: a delivery, due now; or a run, `pending` until its trigger makes it ready. */
  stored(db: SqlClient, job: { runId: string; lane: Lane; pending: boolean }): Promise<void>;
  /** A pending run made ready: due now. */
  ready(db: SqlClient, runId: string): Promise<void>;
}

/** For a store opened to read and write records only (tools, tests): no engine carries its jobs. */
export const NO_ENGINE: Dispatch = { stored: async () => undefined, ready: async () => undefined };
