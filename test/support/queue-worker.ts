// A worker process for the crash tests: the durable queue over the SQLite store in DATA_DIR, with a
// runner that records its work in the audit trail and takes the job's `instructions` milliseconds.
// Exits when nothing is left to do. Run: node test/support/queue-worker.ts <dataDir | postgres URL> <leaseMs>
import { createDurableQueue } from '../../src/jobs/durable-queue.ts';
import { isRun } from '../../src/jobs/run-store.ts';
import { openPostgresStore } from '../../src/jobs/postgres-store.ts';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';

const [dataDir = '', leaseMs = '300'] = process.argv.slice(2);
const store = dataDir.startsWith('postgres') ? await openPostgresStore(dataDir) : await openSqliteStore(dataDir);
const queue = createDurableQueue({ store, concurrency: 1, leaseMs: Number(leaseMs), pollMs: 25, maxTries: 5, onError: (e) => console.error(String(e)) });
await queue.start(async (job, control) => {
  await store.append(job.runId, 'work-start', { pid: process.pid });
  await new Promise<void>((resolve) => {
    const t = setTimeout(resolve, isRun(job) ? Number(job.data.plan.instructions) : 0);
    control.signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
  await store.append(job.runId, 'work-done', { pid: process.pid });
  return { state: 'done', outcome: `done by ${process.pid}` };
});
console.log('worker started');
// Idle for a few lease periods in a row: everything, including what a dead worker held, is done.
let idle = 0;
while (idle < 8) {
  await new Promise((r) => setTimeout(r, Number(leaseMs)));
  const open = (await store.list(1000)).filter((j) => j.state === 'queued' || j.state === 'running' || j.state === 'pending');
  idle = open.length === 0 ? idle + 1 : 0;
}
await queue.shutdown(1000);
await store.close();
