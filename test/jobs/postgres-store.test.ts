// The run store on a real PostgreSQL server (started by .ci/run from Debian's packages; see the
// README for developers): the same contract as the embedded store, plus what is its own.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore, PostgresStoreError } from '../../src/jobs/postgres-store.ts';
import { POSTGRES_MIGRATIONS } from '../../src/jobs/postgres/migrations.ts';
import type { RunStore } from '../../src/jobs/run-store.ts';
import { jobData } from '../support/job-data.ts';
import { describeRunStore } from './run-store-conformance.ts';

const url = process.env.FIXLOOP_TEST_DATABASE_URL;
const schemas: string[] = [];
const stores: RunStore[] = [];
const schemaOf = new Map<RunStore, string>();

async function connect(schema: string): Promise<RunStore> {
  const store = await openPostgresStore(`${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`);
  stores.push(store);
  schemaOf.set(store, schema);
  return store;
}

/** A fresh schema per store: tests never see each other's rows. */
async function open(): Promise<RunStore> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  schemas.push(schema);
  return connect(schema);
}

/** The same schema again, as another process would find it. */
async function reopen(closed: RunStore): Promise<RunStore> {
  const schema = schemaOf.get(closed);
  if (schema === undefined) throw new Error('reopen: this store was not opened by open()');
  return connect(schema);
}

afterAll(async () => {
  if (!url) return;
  await Promise.all(stores.splice(0).map((s) => s.close().catch(() => undefined)));
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  for (const schema of schemas.splice(0)) await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
});

// CI starts PostgreSQL and sets FIXLOOP_REQUIRE_POSTGRES: there, the suites below must not be skipped.
it.runIf(process.env.FIXLOOP_REQUIRE_POSTGRES === '1')('PostgreSQL is available (FIXLOOP_TEST_DATABASE_URL)', () => {
  expect(url).toBeTruthy();
});

describe.runIf(url)('PostgreSQL', () => {
  describeRunStore('PostgreSQL', open, reopen);

  it('keeps an append-only audit trail', async () => {
    const store = await open();
    await store.append('run-1', 'gate', { passed: false });
    const schema = schemas.at(-1) ?? '';
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await expect(admin.query(`UPDATE ${schema}.fixloop_events SET kind = 'forged'`)).rejects.toThrow(/append-only/);
    await expect(admin.query(`DELETE FROM ${schema}.fixloop_events`)).rejects.toThrow(/append-only/);
    await admin.end();
  });

  it('moves runs stored before the trigger column into it, so the loop guard still counts them', async () => {
    // A store as fixloop wrote it at schema 2: the trigger kind only inside the job's data.
    const schema = `t_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}; SET search_path = ${schema}`);
    for (const migration of POSTGRES_MIGRATIONS.slice(0, 2)) await admin.query(migration);
    await admin.query('CREATE TABLE fixloop_schema (version INTEGER NOT NULL); INSERT INTO fixloop_schema (version) VALUES (2)');
    const data = { ...jobData('run-old'), plan: { ...jobData('run-old').plan, kind: 'check' } };
    await admin.query(
      `INSERT INTO fixloop_jobs (run_id, key, state, data, enqueued_at) VALUES ('run-old', 'acme/shop#1', 'done', $1, 1)`,
      [JSON.stringify(data)],
    );
    await admin.end();
    const store = await connect(schema);
    expect(await store.countRuns('acme/shop#1', 'check')).toBe(1);
    expect(await store.countRuns('acme/shop#1', 'label')).toBe(0);
  });

  it('names DATABASE_URL, without its password, when the server cannot be used', async () => {
    const error = await openPostgresStore('postgres://fixloop:s3cret@127.0.0.1:1/nowhere').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresStoreError);
    expect((error as Error).message).toContain('DATABASE_URL: cannot use the run store at postgres://127.0.0.1:1/nowhere');
    expect((error as Error).message).not.toContain('s3cret');
  });
});
