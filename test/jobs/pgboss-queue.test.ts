// The pg-boss run queue in one process: every slot of a worker runs a run at once, and a backlog
// drains without waiting out the polling interval between runs (pg-boss waits it after every job
// unless the worker is woken).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { afterEach, describe, expect, it } from 'vitest';
import { newRunJob } from '../../src/forge/run-job-data.ts';
import { createPgBossQueue } from '../../src/jobs/pgboss-queue.ts';
import { openPostgresStore } from '../../src/jobs/postgres-store.ts';
import { jobData } from '../support/job-data.ts';

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

describe.runIf(pgUrl)('the pg-boss run queue', () => {
  it('runs as many runs at once as it has slots, and takes the next as soon as one ends, whatever the polling interval', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE SCHEMA ${schema}`);
    cleanups.push(() => admin(`DROP SCHEMA ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`));
    const location = `${pgUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const store = await openPostgresStore(location);
    cleanups.push(() => store.close());
    const boss = new PgBoss({ connectionString: location, schema: `${schema}_boss` });
    boss.on('error', () => undefined);
    await boss.start();
    // A polling interval longer than the test may take: only runs taken without waiting it can end in time.
    const queue = createPgBossQueue({ store, boss, concurrency: 2, leaseMs: 5000, pollingSeconds: 600 });
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
});
