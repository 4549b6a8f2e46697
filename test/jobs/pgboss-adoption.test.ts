// An existing PostgreSQL deployment upgraded to the version where pg-boss carries both lanes: the jobs
// the older version stored and had not finished (deliveries its inbox had not handled, runs it had not
// given pg-boss, runs its dead workers held) are each run once by the new workers, a run out of tries
// is given up and told, a run the older version had given pg-boss (twice, as its restarts did) gets no
// other job, and it is so however many new processes start at once, and after they restart.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { afterEach, describe, expect, it } from 'vitest';
import { LANE_QUEUES } from '../../src/jobs/pgboss-lanes.ts';
import { createPgBossQueue } from '../../src/jobs/pgboss-queue.ts';
import type { AnyStoredJob } from '../../src/jobs/run-store.ts';
import { writeOldStore, type OldJob } from '../support/old-postgres-store.ts';
import { openTestLanes } from '../support/pgboss-test-lanes.ts';

const pgUrl = process.env.FIXLOOP_TEST_DATABASE_URL;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(sql);
  await client.end();
}

async function until(check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One process of this version: its store, pg-boss, and the workers of both lanes, started. */
async function startProcess(location: string, bossSchema: string, ran: string[], told: AnyStoredJob[]) {
  const opened = await openTestLanes(location, bossSchema, { maxTries: 3, pendingSeconds: 1 });
  const { store, lanes } = opened;
  const queue = createPgBossQueue({ store, lanes, concurrency: 2, pollingSeconds: 0.5 });
  const inbox = createPgBossQueue({ store, lanes, lane: 'event', concurrency: 2, pollingSeconds: 0.5 });
  cleanups.push(async () => {
    await queue.shutdown(1000);
    await inbox.shutdown(1000);
    await store.close();
  });
  const runner = async (job: AnyStoredJob) => {
    ran.push(job.runId);
    await sleep(100);
    return { state: 'done' as const, outcome: 'done' };
  };
  await Promise.all([queue.start(runner, async (job) => void told.push(job)), inbox.start(runner)]);
  return opened;
}

describe.runIf(pgUrl)('a store an older version left, opened by this one', () => {
  it('runs each job it left unfinished once, gives up the one out of tries, and gives none a second pg-boss job', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const bossSchema = `${schema}_boss`;
    await admin(`CREATE SCHEMA ${schema}`);
    cleanups.push(() => admin(`DROP SCHEMA ${schema} CASCADE; DROP SCHEMA IF EXISTS ${bossSchema} CASCADE`));
    const location = `${pgUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const heldUntil = Date.now() + 4000;
    const old: OldJob[] = [
      { runId: 'event-unhandled', lane: 'event', state: 'queued' },
      { runId: 'event-dead-worker', lane: 'event', state: 'running', tries: 1 },
      { runId: 'run-pending', lane: 'run', state: 'pending' },
      { runId: 'run-never-sent', lane: 'run', state: 'queued' },
      { runId: 'run-dead-worker', lane: 'run', state: 'running', tries: 1 },
      { runId: 'run-lease-running', lane: 'run', state: 'running', tries: 1, leaseUntil: heldUntil },
      { runId: 'run-last-try-died', lane: 'run', state: 'running', tries: 3 },
      { runId: 'run-sent', lane: 'run', state: 'queued' },
      { runId: 'run-done', lane: 'run', state: 'done' },
    ];
    await writeOldStore(location, 3, old);
    // The older version's pg-boss: the run lane's queue as it made it, and a ready run sent to it when
    // made ready and again by a restart (its singleton key does not refuse a copy on a standard queue).
    const before = new PgBoss({ connectionString: location, schema: bossSchema });
    await before.start();
    await before.createQueue(LANE_QUEUES.run.deadLetter);
    await before.createQueue(LANE_QUEUES.run.queue, { retryLimit: 2, retryDelay: 1, deadLetter: LANE_QUEUES.run.deadLetter });
    for (let i = 0; i < 2; i++) await before.send(LANE_QUEUES.run.queue, { runId: 'run-sent' }, { singletonKey: 'run-sent' });
    await before.stop({ graceful: false });

    // Two processes of this version start at once.
    const ran: string[] = [];
    const told: AnyStoredJob[] = [];
    const [{ store }] = await Promise.all([
      startProcess(location, bossSchema, ran, told),
      startProcess(location, bossSchema, ran, told),
    ]);
    const runnable = old.filter((j) => j.state !== 'done' && j.runId !== 'run-last-try-died').map((j) => j.runId);
    await until(async () => told.length === 1 && new Set(ran).size === runnable.length);
    await until(async () => (await store.list(20)).every((j) => !['pending', 'queued', 'running'].includes(j.state)));
    // They stop, and one starts again: nothing is adopted or run a second time.
    for (const cleanup of cleanups.splice(1).reverse()) await cleanup();
    const again = await startProcess(location, bossSchema, ran, told);
    await sleep(3000);
    expect([...ran].sort()).toEqual([...runnable].sort());
    expect(told.map((j) => [j.runId, j.outcome])).toEqual([
      ['run-last-try-died', 'its worker stopped 3 time(s) without finishing'],
    ]);

    const states = Object.fromEntries((await again.store.list(20)).map((j) => [j.runId, [j.state, j.tries]]));
    expect(states).toMatchObject({
      'run-pending': ['done', 1],
      'run-never-sent': ['done', 1],
      'run-dead-worker': ['done', 2],
      'run-lease-running': ['done', 2],
      'run-last-try-died': ['failed', 3],
      'run-sent': ['done', 1],
      'run-done': ['done', 1],
    });
    const events = Object.fromEntries((await again.store.list(20, 'event')).map((j) => [j.runId, [j.state, j.tries]]));
    expect(events).toEqual({ 'event-unhandled': ['done', 1], 'event-dead-worker': ['done', 2] });
    // A dead worker's run is handed on as a crash would be; one whose lease was still running, once it ended.
    const trail = await again.store.events('run-dead-worker');
    expect(trail.map((e) => [e.kind, e.data])).toEqual([
      ['recovered', { from: 'worker lost' }],
      ['claimed', { owner: expect.stringMatching(/#2$/) as unknown, try: 2 }],
      ['done', expect.objectContaining({ outcome: 'done' }) as unknown],
    ]);
    const claimed = (await again.store.events('run-lease-running')).find((e) => e.kind === 'claimed');
    expect(claimed?.at).toBeGreaterThanOrEqual(heldUntil);

    // pg-boss has one job for each, the older version's copy of `run-sent` cancelled; none for a finished run.
    const jobs = async (lane: 'run' | 'event', runId: string, dead = false) =>
      (await again.boss.findJobs(LANE_QUEUES[lane][dead ? 'deadLetter' : 'queue'], { key: runId })).map((j) => j.state).sort();
    for (const runId of runnable.filter((id) => id !== 'run-sent'))
      expect(await jobs(runId.startsWith('event-') ? 'event' : 'run', runId)).toEqual(['completed']);
    expect(await jobs('run', 'run-sent')).toEqual(['cancelled', 'completed']);
    expect(await jobs('run', 'run-last-try-died')).toEqual([]);
    expect(await jobs('run', 'run-last-try-died', true)).toEqual(['completed']);
    expect(await jobs('run', 'run-done')).toEqual([]);
  }, 90_000);
});
