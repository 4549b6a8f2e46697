// What every queue engine answers from the run store alike: status, counts, the last run, and a
// cancel that also stops the job at once when it runs in this process.
import { Cancelled, type JobQueue } from './job-queue.ts';
import type { JobStore } from './run-store.ts';

export function storeQueries(
  store: JobStore,
  running: Map<string, AbortController>,
): Pick<JobQueue, 'status' | 'countRuns' | 'lastRun' | 'cancel'> {
  return {
    status: (key) => store.active(key),
    countRuns: (key, trigger) => store.countRuns(key, trigger),
    lastRun: (key) => store.lastRun(key),
    async cancel(key, by) {
      const info = await store.requestCancel(key, by);
      if (info) running.get(info.runId)?.abort(new Cancelled(by));
      return info;
    },
  };
}
