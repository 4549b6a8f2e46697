// The lanes on pg-boss in one process: every slot of a worker runs a job at once, and a backlog drains
// without waiting out the polling interval between jobs (pg-boss waits it after every job unless the
// worker is woken); pg-boss alone decides who holds a job, and the store records what it decided: a
// run is not started before it is ready, a delivery is handled once, a cancel from another process
// reaches the worker, a shutdown hands the run back, and a run pg-boss gives up is ended and told.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { newRunJob } from '../../src/forge/run-job-data.ts';
import { Cancelled, Shutdown, type JobControl, type JobOutcome } from '../../src/jobs/job-queue.ts';
import { LANE_QUEUES } from '../../src/jobs/pgboss-lanes.ts';
import { createPgBossQueue } from '../../src/jobs/pgboss-queue.ts';
import type { AnyStoredJob } from '../../src/jobs/run-store.ts';
import { jobData } from '../support/job-data.ts';
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

/** A schema of its own, and a way to open a process's store and pg-boss in it. */
async function world() {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE SCHEMA ${schema}`);
  cleanups.push(() => admin(`DROP SCHEMA ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`));
  const location = `${pgUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return async (settings: { maxTries?: number; pendingSeconds?: number } = {}) => {
    const opened = await openTestLanes(location, `${schema}_boss`, settings);
    cleanups.push(async () => {
      await opened.boss.stop({ graceful: false });
      await opened.store.close();
    });
    return opened;
  };
}

async function until(check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A runner that waits until it is aborted (or `ms` passes), and says how it ended. */
function waitingRunner(ms: number, seen: Array<{ job: AnyStoredJob; reason?: unknown }>) {
  return async (job: AnyStoredJob, control: JobControl): Promise<JobOutcome> => {
    const entry: { job: AnyStoredJob; reason?: unknown } = { job };
    seen.push(entry);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      control.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    entry.reason = control.signal.reason;
    return control.signal.reason instanceof Cancelled
      ? { state: 'cancelled', outcome: `cancelled by ${control.signal.reason.by}` }
      : { state: 'done', outcome: 'done' };
  };
}

describe.runIf(pgUrl)('the lanes on pg-boss', () => {
  it('runs as many runs at once as it has slots, and takes the next as soon as one ends, whatever the polling interval', async () => {
    const { store, lanes } = await (await world())();
    // A polling interval longer than the test may take: only runs taken without waiting it can end in time.
    const queue = createPgBossQueue({ store, lanes, concurrency: 2, pollingSeconds: 600 });
    cleanups.push(() => queue.shutdown(1000));

    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const data = jobData(`run-${i}`, `acme/shop#${i}`);
      await store.enqueue(newRunJob(data), 'alice', `delivery-${i}`);
      await store.markReady(data.runId, {});
      ids.push(data.runId);
    }
    let running = 0;
    let most = 0;
    await queue.start(async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 200));
      running--;
      return { state: 'done', outcome: 'done' };
    });
    for (;;) {
      const states = await Promise.all(ids.map(async (id) => (await store.get(id))?.state));
      if (states.every((s) => s === 'done')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(most).toBe(2);
  }, 30_000);

  it('starts a run once its trigger makes it ready, or once its trigger is past saying so', async () => {
    const { store, lanes } = await (await world())({ pendingSeconds: 3 });
    const queue = createPgBossQueue({ store, lanes, concurrency: 2, pollingSeconds: 0.5 });
    cleanups.push(() => queue.shutdown(1000));
    await store.enqueue(newRunJob(jobData('run-told')), 'alice', 'd1');
    await store.enqueue(newRunJob(jobData('run-untold', 'acme/shop#2')), 'alice', 'd2');
    const seen: Array<{ job: AnyStoredJob }> = [];
    await queue.start(waitingRunner(0, seen));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(seen).toEqual([]);
    await store.markReady('run-told', { statusCommentId: 77 });
    await until(async () => (await store.get('run-told'))?.state === 'done');
    expect(seen.map((s) => s.job.runId)).toEqual(['run-told']);
    expect(seen[0]?.job.data).toMatchObject({ statusCommentId: 77 });
    // The trigger of the other died before it could say so: the run is started all the same.
    await until(async () => (await store.get('run-untold'))?.state === 'done');
    expect((await store.events('run-untold')).map((e) => e.kind)).toEqual(['queued', 'recovered', 'claimed', 'done']);
    expect((await store.events('run-told')).map((e) => e.kind)).toEqual(['queued', 'claimed', 'done']);
  }, 30_000);

  it('handles a delivery once, however often it is redelivered', async () => {
    const { store, lanes } = await (await world())();
    const inbox = createPgBossQueue({ store, lanes, lane: 'event', concurrency: 4, pollingSeconds: 0.5 });
    cleanups.push(() => inbox.shutdown(1000));
    const delivery = { delivery: 'd-1', name: 'issues.labeled', payload: {}, credentialRef: 'ref' };
    expect(await inbox.accept(delivery)).toBe(true);
    expect(await inbox.accept(delivery)).toBe(false);
    const handled: string[] = [];
    await inbox.start(async (job) => {
      handled.push(job.runId);
      return { state: 'done', outcome: 'handled' };
    });
    await until(async () => (await store.list(10, 'event'))[0]?.state === 'done');
    expect(await inbox.accept(delivery)).toBe(false);
    await inbox.drain();
    expect(handled).toEqual(['event-d-1']);
  }, 30_000);

  it('passes a cancel asked in another process to the running worker, with who asked', async () => {
    const open = await world();
    const { store, lanes } = await open();
    const queue = createPgBossQueue({ store, lanes, concurrency: 1, pollingSeconds: 0.5 });
    cleanups.push(() => queue.shutdown(1000));
    await store.enqueue(newRunJob(jobData('run-1')), 'alice', 'd1');
    await store.markReady('run-1', {});
    const seen: Array<{ job: AnyStoredJob; reason?: unknown }> = [];
    await queue.start(waitingRunner(60_000, seen));
    await until(() => seen.length === 1);
    // Another process (a web process answering `/fix cancel`) asks through the store.
    const other = await open();
    await other.store.requestCancel('acme/shop#1', 'bob');
    await until(async () => (await store.get('run-1'))?.state === 'cancelled');
    expect(seen[0]?.reason).toBeInstanceOf(Cancelled);
    expect((await store.get('run-1'))?.outcome).toBe('cancelled by bob');
  }, 30_000);

  it('hands a run back at a shutdown, and the next worker runs it again', async () => {
    const open = await world();
    const first = await open();
    const stopping = createPgBossQueue({ store: first.store, lanes: first.lanes, concurrency: 1, pollingSeconds: 0.5 });
    await first.store.enqueue(newRunJob(jobData('run-1')), 'alice', 'd1');
    await first.store.markReady('run-1', {});
    const seen: Array<{ job: AnyStoredJob; reason?: unknown }> = [];
    await stopping.start(waitingRunner(60_000, seen));
    await until(() => seen.length === 1);
    await stopping.shutdown(100);
    expect(seen[0]?.reason).toBeInstanceOf(Shutdown);
    expect((await first.store.get('run-1'))?.state).toBe('queued');

    const next = await open();
    const queue = createPgBossQueue({ store: next.store, lanes: next.lanes, concurrency: 1, pollingSeconds: 0.5 });
    cleanups.push(() => queue.shutdown(1000));
    await queue.start(waitingRunner(0, seen));
    await until(async () => (await next.store.get('run-1'))?.state === 'done');
    expect((await next.store.events('run-1')).map((e) => e.kind)).toEqual(['queued', 'claimed', 'released', 'claimed', 'done']);
  }, 30_000);

  it('gives a run up after its tries, ending it once and telling the person who asked', async () => {
    const { boss, store, lanes } = await (await world())({ maxTries: 2 });
    await store.enqueue(newRunJob(jobData('run-1')), 'alice', 'd1');
    await store.markReady('run-1', {});
    // Two workers take the run and die; pg-boss fails each attempt, as its heartbeat check does.
    for (let tries = 1; tries <= 2; tries++) {
      let [job] = await boss.fetch(LANE_QUEUES.run.queue);
      while (!job) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        [job] = await boss.fetch(LANE_QUEUES.run.queue);
      }
      await store.begin('run-1', `dead#${tries}`, tries);
      await boss.fail(LANE_QUEUES.run.queue, job, { message: 'job heartbeat timeout' });
    }
    const queue = createPgBossQueue({ store, lanes, concurrency: 1, pollingSeconds: 0.5 });
    cleanups.push(() => queue.shutdown(1000));
    const told: AnyStoredJob[] = [];
    const seen: Array<{ job: AnyStoredJob }> = [];
    await queue.start(waitingRunner(0, seen), async (job) => void told.push(job));
    await until(() => told.length === 1);
    const outcome = 'its worker stopped 2 time(s) without finishing';
    expect(told[0]).toMatchObject({ runId: 'run-1', state: 'failed', outcome });
    expect(await store.get('run-1')).toMatchObject({ state: 'failed', outcome, tries: 2 });
    expect((await store.events('run-1')).map((e) => e.kind)).toEqual(['queued', 'claimed', 'recovered', 'claimed', 'failed']);
    expect(seen).toEqual([]);
  }, 30_000);
});
