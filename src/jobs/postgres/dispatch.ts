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

/** An unfinished job kept by a store written before the engine carried its lane (adopt.ts). */
export interface AdoptedJob {
  runId: string;
  lane: Lane;
  /** Stored, its trigger not heard from since: due once the trigger is past saying so. */
  pending: boolean;
  /** Until when the worker that ran it (under that version's lease) was still taken to be alive. */
  heldUntil: number | null;
  /** The tries it has had, as that version counted them (a try its worker died in counts). */
  tries: number;
}

/** What the engine writes, in the store's transaction, when a job becomes due or will. */
export interface Dispatch {
  /** A job just stored: a delivery, due now; or a run, `pending` until its trigger makes it ready. */
  stored(db: SqlClient, job: { runId: string; lane: Lane; pending: boolean }): Promise<void>;
  /** A pending run made ready: due now. */
  ready(db: SqlClient, runId: string): Promise<void>;
  /**
   * A job stored before the engine carried its lane: given to the engine as a crash would have left
   * it (due when its old hold ends, its tries counted), unless the engine has it already.
   */
  adopted(db: SqlClient, job: AdoptedJob): Promise<void>;
}

/** For a store opened to read and write records only (tools, tests): no engine carries its jobs. */
export const NO_ENGINE: Dispatch = {
  stored: async () => undefined,
  ready: async () => undefined,
  // Its mark would be cleared with no engine holding the job: that job would be lost.
  adopted: () => Promise.reject(new Error('no queue engine carries this store: its jobs cannot be handed to one')),
};
