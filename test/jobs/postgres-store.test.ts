// The run store on a real PostgreSQL server (started by .ci/run from Debian's packages; see the
// README for developers): the same contract as the embedded store, plus what is its own.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { newRunJob } from '../../src/forge/run-job-data.ts';
import {
  openPostgresStore,
  PostgresStoreError,
  type AdoptedJob,
  type Dispatch,
  type PostgresRunStore,
} from '../../src/jobs/postgres-store.ts';
import { POSTGRES_MIGRATIONS } from '../../src/jobs/postgres/migrations.ts';
import { jobData } from '../support/job-data.ts';
import { writeOldStore } from '../support/old-postgres-store.ts';
import { describeRunStore, type Holding } from './run-store-conformance.ts';

const url = process.env.FIXLOOP_TEST_DATABASE_URL;
const schemas: string[] = [];
const stores: PostgresRunStore[] = [];
const schemaOf = new Map<PostgresRunStore, string>();

async function connect(schema: string, dispatch?: Dispatch): Promise<PostgresRunStore> {
  const store = await openPostgresStore(`${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`, dispatch);
  stores.push(store);
  schemaOf.set(store, schema);
  return store;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(sql);
  await client.end();
}

/** A fresh schema per store: tests never see each other's rows. */
async function open(dispatch?: Dispatch): Promise<PostgresRunStore> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE SCHEMA ${schema}`);
  schemas.push(schema);
  return connect(schema, dispatch);
}

/** pg-boss hands a job to an attempt; the store records it, and what its holder reports. */
const attempts: Holding<PostgresRunStore> = {
  take: (store, runId, worker) => store.begin(runId, worker, 1),
  beat: (store, runId, worker, progress) => store.report(runId, worker, progress),
};

/** The same schema again, as another process would find it. */
async function reopen(closed: PostgresRunStore): Promise<PostgresRunStore> {
  const schema = schemaOf.get(closed);
  if (schema === undefined) throw new Error('reopen: this store was not opened by open()');
  return connect(schema);
}

afterAll(async () => {
  if (!url) return;
  await Promise.all(stores.splice(0).map((s) => s.close().catch(() => undefined)));
  for (const schema of schemas.splice(0)) await admin(`DROP SCHEMA ${schema} CASCADE`);
});

// CI starts PostgreSQL and sets FIXLOOP_REQUIRE_POSTGRES: there, the suites below must not be skipped.
it.runIf(process.env.FIXLOOP_REQUIRE_POSTGRES === '1')('PostgreSQL is available (FIXLOOP_TEST_DATABASE_URL)', () => {
  expect(url).toBeTruthy();
});

describe.runIf(url)('PostgreSQL', () => {
  describeRunStore('PostgreSQL', () => open(), reopen, attempts);

  it('records the attempt pg-boss hands a run to: the one before it can no longer report, hand it back or end it', async () => {
    const store = await open();
    await store.enqueue(newRunJob(jobData('run-1')), 'alice', 'd1');
    await store.markReady('run-1', { statusCommentId: 77 });
    const begun = await store.begin('run-1', 'w1#1', 1);
    expect(begun).toMatchObject({ runId: 'run-1', state: 'running', tries: 1, data: { statusCommentId: 77 } });
    expect(await store.report('run-1', 'w2#1')).toBeNull();
    // pg-boss took the first worker for dead and handed the run on: the first worker comes back too late.
    expect(await store.begin('run-1', 'w2#2', 2)).toMatchObject({ runId: 'run-1', tries: 2 });
    expect(await store.report('run-1', 'w1#1', 'attempt 1/5')).toBeNull();
    await store.release('run-1', 'w1#1');
    await store.finish('run-1', 'w1#1', 'done', 'late');
    expect((await store.get('run-1'))?.state).toBe('running');
    await store.finish('run-1', 'w2#2', 'done', 'ok', '/data/runs/run-1');
    expect(await store.get('run-1')).toMatchObject({ state: 'done', outcome: 'ok', artifactsDir: '/data/runs/run-1' });
    // A run that ended (its worker recorded the end, then died before pg-boss heard) is not begun again.
    expect(await store.begin('run-1', 'w3#3', 3)).toBeNull();
    const trail = (await store.events('run-1')).map((e) => e.kind);
    expect(trail).toEqual(['queued', 'claimed', 'recovered', 'claimed', 'done']);
  });

  it('begins a run its trigger never made ready, saying so, and ends a run pg-boss gave up once, so someone can be told', async () => {
    const store = await open();
    await store.enqueue(newRunJob(jobData('run-1')), 'alice', 'd1');
    expect(await store.begin('run-1', 'w1#1', 1)).toMatchObject({ state: 'running' });
    const outcome = 'its worker stopped 3 time(s) without finishing';
    expect(await store.giveUp('run-1', outcome)).toMatchObject({ runId: 'run-1', state: 'failed', outcome });
    expect(await store.giveUp('run-1', outcome)).toBeNull();
    expect((await store.events('run-1')).map((e) => e.kind)).toEqual(['queued', 'recovered', 'claimed', 'failed']);
  });

  it('makes each job due in the queue engine in the transaction that stores it, or stores nothing', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.engine (run_id TEXT PRIMARY KEY, lane TEXT, pending BOOLEAN)`);
    schemas.push(schema);
    const engine: Dispatch = {
      stored: async (db, job) => {
        await db.executeSql('INSERT INTO engine VALUES ($1, $2, $3)', [job.runId, job.lane, job.pending]);
      },
      ready: async (db, runId) => {
        await db.executeSql('UPDATE engine SET pending = false WHERE run_id = $1', [runId]);
      },
      adopted: async (db, job) => {
        await db.executeSql('INSERT INTO engine VALUES ($1, $2, $3)', [job.runId, job.lane, job.pending]);
      },
    };
    const store = await connect(schema, engine);
    await store.enqueue(newRunJob(jobData('run-1')), 'alice', 'd1');
    expect(await store.acceptEvent({ delivery: 'd2', name: 'issues.labeled', payload: {}, credentialRef: 'ref' })).toBe(true);
    expect(await store.acceptEvent({ delivery: 'd2', name: 'issues.labeled', payload: {}, credentialRef: 'ref' })).toBe(false);
    const rows = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const found = (await client.query(`SELECT * FROM ${schema}.engine ORDER BY run_id`)).rows;
      await client.end();
      return found;
    };
    expect(await rows()).toEqual([
      { run_id: 'event-d2', lane: 'event', pending: false },
      { run_id: 'run-1', lane: 'run', pending: true },
    ]);
    await store.markReady('run-1', {});
    expect(await rows()).toContainEqual({ run_id: 'run-1', lane: 'run', pending: false });

    // The engine cannot take the job: nothing is stored, so the webhook is not answered and comes again.
    const down = await connect(schema, { ...engine, stored: () => Promise.reject(new Error('the engine is down')) });
    await expect(down.acceptEvent({ delivery: 'd3', name: 'issues.labeled', payload: {}, credentialRef: 'ref' })).rejects.toThrow(
      'the engine is down',
    );
    await expect(down.enqueue(newRunJob(jobData('run-2', 'acme/shop#2')), 'alice', 'd4')).rejects.toThrow('the engine is down');
    expect(await down.get('run-2')).toBeNull();
    expect(await store.acceptEvent({ delivery: 'd3', name: 'issues.labeled', payload: {}, credentialRef: 'ref' })).toBe(true);
  });

  it('hands the engine each job a store of schema 3 left unfinished, as it was left, once, whoever starts first', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE SCHEMA ${schema}`);
    schemas.push(schema);
    const heldUntil = Date.now() + 60_000;
    await writeOldStore(`${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`, 3, [
      { runId: 'event-d1', lane: 'event', state: 'queued' },
      { runId: 'event-d2', lane: 'event', state: 'running', tries: 2, leaseUntil: 1000 },
      { runId: 'run-pending', lane: 'run', state: 'pending' },
      { runId: 'run-queued', lane: 'run', state: 'queued', tries: 1 },
      { runId: 'run-running', lane: 'run', state: 'running', tries: 2, leaseUntil: heldUntil },
      { runId: 'run-done', lane: 'run', state: 'done' },
    ]);
    // A store opened without an engine (a tool) cannot hand them on: they stay marked.
    await expect((await connect(schema)).adoptStored()).rejects.toThrow('no queue engine carries this store');
    const adopted: AdoptedJob[] = [];
    const engine: Dispatch = {
      stored: () => Promise.reject(new Error('nothing is stored here')),
      ready: () => Promise.reject(new Error('nothing is made ready here')),
      adopted: async (_db, job) => void adopted.push(job),
    };
    // Two processes start at once, and one starts later.
    const [first, second] = [await connect(schema, engine), await connect(schema, engine)];
    await Promise.all([first.adoptStored(), second.adoptStored()]);
    await (await connect(schema, engine)).adoptStored();
    expect(adopted).toEqual([
      { runId: 'event-d1', lane: 'event', pending: false, heldUntil: null, tries: 0 },
      { runId: 'event-d2', lane: 'event', pending: false, heldUntil: 1000, tries: 2 },
      { runId: 'run-pending', lane: 'run', pending: true, heldUntil: null, tries: 0 },
      { runId: 'run-queued', lane: 'run', pending: false, heldUntil: null, tries: 1 },
      { runId: 'run-running', lane: 'run', pending: false, heldUntil, tries: 2 },
    ]);
    // The engine holds them now: the old leases are gone, the jobs as they were otherwise.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const leases = await client.query(`SELECT run_id FROM ${schema}.fixloop_jobs WHERE lease_until IS NOT NULL`);
    await client.end();
    expect(leases.rows).toEqual([]);
    expect(await first.get('run-running')).toMatchObject({ state: 'running', tries: 2 });
  });

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
