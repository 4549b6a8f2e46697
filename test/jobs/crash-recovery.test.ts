// Durability across processes: workers killed with SIGKILL mid-job; what they held is taken up again
// after its lease expires, and the audit trail shows every job ran to completion exactly once.
import { newRunJob } from '../../src/forge/run-job-data.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunStore } from '../../src/jobs/run-store.ts';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';
import { jobData } from '../support/job-data.ts';
import { openTestLanes } from '../support/pgboss-test-lanes.ts';
import { fullSuite } from '../support/suite-tier.ts';

const WORKER = fileURLToPath(new URL('../support/queue-worker.ts', import.meta.url));
let dir: string;
/** Where the workers find the store: a data directory, or a PostgreSQL URL. */
let location: string;
let store: RunStore;
/** The test's own pg-boss, through which its store sends the jobs it stores. */
let boss: PgBoss | null = null;
let schema: string | null = null;
const children: ChildProcess[] = [];
const pgUrl = process.env.FIXLOOP_TEST_DATABASE_URL;

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await store.close();
  await boss?.stop({ graceful: false });
  boss = null;
  await rm(dir, { recursive: true, force: true });
  if (schema) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
    await admin.end();
    schema = null;
  }
});

/** Extra worker arguments: the queue engine (pg-boss, PostgreSQL's) and its schema. */
let engineArgs: string[] = [];

function worker(leaseMs = 300): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [WORKER, location, String(engineArgs.length ? 3000 : leaseMs), ...engineArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return { child, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
}

async function enqueue(n: number, workMs: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const data = jobData(`run-${i}`, `acme/shop#${i}`);
    data.plan.instructions = String(workMs);
    await store.enqueue(newRunJob(data), 'alice', `delivery-${i}`);
    await store.markReady(data.runId, {});
    ids.push(data.runId);
  }
  return ids;
}

async function until(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Every job ends done exactly once. Its work runs once, or twice only when the worker that first
 * finished it was killed before it could record the end (the work is done, its end is not: the
 * lease expires and the job is taken up again, at least once by design); a living worker never
 * repeats a job that was recorded done.
 */
async function expectEachDoneOnce(ids: string[], killedPid: number | null = null): Promise<void> {
  for (const id of ids) {
    const events = await store.events(id);
    const kinds = events.map((e) => e.kind);
    expect((await store.get(id))?.state, id).toBe('done');
    expect(
      kinds.filter((k) => k === 'done'),
      id,
    ).toHaveLength(1);
    const workDone = events.filter((e) => e.kind === 'work-done');
    if (workDone.length === 2 && killedPid !== null) {
      expect(workDone[0]?.data.pid, `${id}: the first end of its work was by the killed worker`).toBe(killedPid);
      expect(kinds.indexOf('recovered'), `${id}: taken up again after its lease expired`).toBeGreaterThan(
        kinds.indexOf('work-done'),
      );
    } else {
      expect(workDone, id).toHaveLength(1);
    }
  }
}

async function postgresSchema(): Promise<string> {
  schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return schema;
}

const backends: Array<{ name: string; enabled: boolean; setup: () => Promise<void> }> = [
  {
    name: 'the embedded SQLite store, shared by processes on one machine',
    enabled: true,
    setup: async () => {
      dir = await mkdtemp(join(tmpdir(), 'fixloop-crash-'));
      engineArgs = [];
      location = dir;
      store = await openSqliteStore(dir);
    },
  },
  {
    name: 'the PostgreSQL store with pg-boss carrying the jobs, shared by workers anywhere',
    enabled: Boolean(pgUrl),
    setup: async () => {
      dir = await mkdtemp(join(tmpdir(), 'fixloop-crash-'));
      const s = await postgresSchema();
      engineArgs = ['pgboss', `${s}_boss`];
      location = `${pgUrl}?options=${encodeURIComponent(`-c search_path=${s}`)}`;
      ({ boss, store } = await openTestLanes(location, `${s}_boss`));
    },
  },
];

for (const backend of backends)
  describe.runIf(backend.enabled)(`durable runs across crashes, on ${backend.name}`, () => {
    beforeEach(backend.setup);

    it('a job whose worker is killed with SIGKILL mid-run completes after a restart, none lost', async () => {
      const ids = await enqueue(5, 400);
      const first = worker();
      // Mid-run: the work has started (claimed alone is not enough: under load the kill could land before it).
      await until(async () => (await store.events('run-1')).some((e) => e.kind === 'work-start'));
      first.child.kill('SIGKILL');
      await first.exited;
      expect((await store.get('run-1'))?.state).toBe('running');

      const second = worker();
      expect(await second.exited).toBe(0);
      await expectEachDoneOnce(ids);
      const trail = (await store.events('run-1')).map((e) => e.kind);
      expect(trail).toEqual(['queued', 'claimed', 'work-start', 'recovered', 'claimed', 'work-start', 'work-done', 'done']);
    }, 240_000);

    it.runIf(fullSuite)(
      'two workers drain 50 jobs while one is killed mid-job: no job completes twice, none is lost',
      async () => {
        const ids = await enqueue(50, 40);
        // A lease of a second: with 300 ms, a worker starved of CPU on a loaded machine missed its heartbeats,
        // lost its lease while still working, and the other worker ran the same job again.
        const a = worker(1000);
        const b = worker(1000);
        await until(async () => (await store.list(100)).filter((j) => j.state === 'done').length >= 5);
        a.child.kill('SIGKILL');
        await a.exited;
        expect(await b.exited).toBe(0);
        await expectEachDoneOnce(ids, a.child.pid ?? null);
      },
      240_000,
    );
  });
