// Connecting to PostgreSQL and bringing the schema up to date; a store that cannot be used is named
// (without the password of DATABASE_URL).
import pg from 'pg';
import { POSTGRES_MIGRATIONS } from './migrations.ts';
import { PostgresStoreError } from './store-error.ts';

/** Held while the schema changes, and while the jobs an older schema left are handed on (adopt.ts). */
export const SCHEMA_LOCK = 4242001;

export async function openPool(connectionString: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // A pool error (a connection dropped by the server) must not take the process down.
  pool.on('error', () => undefined);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    const where = connectionString.replace(/\/\/[^@/]*@/, '//');
    throw new PostgresStoreError(
      'STORE_UNAVAILABLE',
      `DATABASE_URL: cannot use the run store at ${where}: ${(error as Error).message}`,
    );
  }
  return pool;
}

async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS fixloop_schema (version INTEGER NOT NULL)');
    const current = (await client.query<{ version: number }>('SELECT version FROM fixloop_schema')).rows[0]?.version ?? 0;
    if (current > POSTGRES_MIGRATIONS.length)
      throw new Error(
        `the store was written by a newer fixloop (schema ${current}, this one knows ${POSTGRES_MIGRATIONS.length})`,
      );
    for (let v = current; v < POSTGRES_MIGRATIONS.length; v++) await client.query(POSTGRES_MIGRATIONS[v] ?? '');
    await client.query('DELETE FROM fixloop_schema');
    await client.query('INSERT INTO fixloop_schema (version) VALUES ($1)', [POSTGRES_MIGRATIONS.length]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Runs `work` on one client inside a transaction. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
