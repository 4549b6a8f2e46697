// A worker process for the crash tests: a queue over the store at LOCATION (a SQLite data directory
// and the embedded queue; or, with ENGINE=pgboss, a PostgreSQL URL and pg-boss in BOSS_SCHEMA), with
// a runner that records its work in the audit trail and takes the job's `instructions` milliseconds.
// Exits when nothing is left to do.
// Run: node test/support/queue-worker.ts <location> <leaseMs> [pgboss <bossSchema>] (pg-boss's heartbeat is
// its lease: leaseMs is the embedded queue's)
import { createDurableQueue } from '../../src/jobs/durable-queue.ts';
import type { JobQueue } from '../../src/jobs/job-queue.ts';
import { createPgBossQueue } from '../../src/jobs/pgboss-queue.ts';
import { runJobData } from '../../src/forge/run-job-data.ts';
import { isRun, type RunStore } from '../../src/jobs/run-store.ts';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';
import { openTestLanes } from './pgboss-test-lanes.ts';

const [location = '', leaseMs = '300', engine = '', bossSchema = 'pgboss'] = process.argv.slice(2);
let store: RunStore;
let queue: JobQueue;
if (engine === 'pgboss') {
  const { lanes, store: pgStore } = await openTestLanes(location, bossSchema);
  store = pgStore;
  queue = createPgBossQueue({
    store: pgStore,
    lanes,
    concurrency: 1,
    pollingSeconds: 0.5,
    onError: (e) => console.error(String(e)),
  });
} else {
  const sqliteStore = await openSqliteStore(location);
  store = sqliteStore;
  queue = createDurableQueue({
    store: sqliteStore,
    concurrency: 1,
    leaseMs: Number(leaseMs),
    pollMs: 25,
    maxTries: 5,
    onError: (e) => console.error(String(e)),
  });
}
await queue.start(async (job, control) => {
  await store.append(job.runId, 'work-start', { pid: process.pid });
  await new Promise<void>((resolve) => {
    const t = setTimeout(resolve, isRun(job) ? Number(runJobData(job).plan.instructions) : 0);
    control.signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
  await store.append(job.runId, 'work-done', { pid: process.pid });
  return { state: 'done', outcome: `done by ${process.pid}` };
});
console.log('worker started');
// Idle for a few looks in a row: everything is done (a job a dead worker held counts as open until
// someone takes it up again, so the store itself says when nothing is left). The looks are at most
// 200 ms apart, not a lease apart: a worker that has finished does not sleep for seconds more.
const idleRounds = engine === 'pgboss' ? 3 : 8;
const lookMs = Math.min(Number(leaseMs), 200);
let idle = 0;
while (idle < idleRounds) {
  await new Promise((r) => setTimeout(r, lookMs));
  const open = (await store.list(1000)).filter((j) => j.state === 'queued' || j.state === 'running' || j.state === 'pending');
  idle = open.length === 0 ? idle + 1 : 0;
}
await queue.shutdown(1000);
await store.close();
