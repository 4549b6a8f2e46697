// Opening the SQLite file (Node's own node:sqlite) in WAL mode and bringing its schema up to date;
// a file that cannot be used is named, with what to do about it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as Sqlite from 'node:sqlite';
import type { DatabaseSync as Database } from 'node:sqlite';
import { CodedError } from '../../core/coded-error.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';

export class StoreError extends CodedError<'STORE_UNAVAILABLE' | 'STORE_CORRUPT'> {}

/** node:sqlite still announces itself as experimental on Node 24; that line is not for users. */
async function loadSqlite(): Promise<typeof Sqlite> {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('SQLite is an experimental feature')) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return await import('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
}

/** `dataDir` = null keeps everything in memory (tests, and one-off CLI runs). */
export async function openDatabase(dataDir: string | null): Promise<Database> {
  const { DatabaseSync } = await loadSqlite();
  let db: Database;
  const file = dataDir === null ? ':memory:' : join(dataDir, 'fixloop.db');
  try {
    if (dataDir !== null) mkdirSync(dataDir, { recursive: true });
    db = new DatabaseSync(file);
  } catch (error) {
    throw new StoreError('STORE_UNAVAILABLE', `FIXLOOP_DATA_DIR: cannot open the run store ${file}: ${(error as Error).message}`);
  }
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;');
    migrate(db);
    db.prepare('SELECT count(*) FROM jobs').get();
  } catch (error) {
    db.close();
    throw new StoreError(
      'STORE_CORRUPT',
      `FIXLOOP_DATA_DIR: the run store ${file} cannot be used: ${(error as Error).message}. Move it aside to start with an empty one (runs recorded in it are then forgotten).`,
    );
  }
  return db;
}

function migrate(db: Database): void {
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version > SQLITE_MIGRATIONS.length)
    throw new Error(`it was written by a newer fixloop (schema ${version}, this one knows ${SQLITE_MIGRATIONS.length})`);
  for (let v = version; v < SQLITE_MIGRATIONS.length; v++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(SQLITE_MIGRATIONS[v] ?? '');
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}

/** Runs `work` in one write transaction (SQLite serializes writers across processes). */
export function inTransaction<T>(db: Database, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
