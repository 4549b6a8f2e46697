// The GitHub Action's run queue: one event, at most one run, in this process. The trigger stores its
// run here through the same fix service as the App's (reaction, queued status comment), and the action
// then runs it at once. There is no store across workflow runs: status, cancel and retry see only this
// process, and the failing-check loop guard counts fixloop's status comments on GitHub instead.
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { JobInfo, StoredJob } from '../../jobs/run-store.ts';

export interface OneRunQueue extends JobQueue {
  /** The run a trigger started, ready to run; null when the event started nothing. */
  started(): StoredJob | null;
}

/** How many runs fixloop made on an issue or pull request before this one, as GitHub shows them. */
export type PastRuns = (key: string) => Promise<number>;

export function createOneRunQueue(pastRuns: PastRuns): OneRunQueue {
  let job: StoredJob | null = null;
  const refuse = (what: string) => () =>
    Promise.reject(new Error(`the GitHub Action runs its one event in process: it does not ${what}`));
  return {
    accept: refuse('store deliveries'),
    start: refuse('start workers'),
    async enqueue(newJob, actor) {
      if (job) return { accepted: false, active: info(job) };
      job = { ...info({ runId: newJob.runId, key: newJob.key, actor }), lane: 'run', data: newJob.data };
      return { accepted: true };
    },
    async markReady(runId, patch) {
      if (job?.runId !== runId) throw new Error(`no run ${runId} here`);
      job = { ...job, state: 'queued', data: { ...(job.data as Record<string, unknown>), ...patch } };
    },
    async status(key) {
      return job?.key === key ? info(job) : null;
    },
    async countRuns(key) {
      return pastRuns(key);
    },
    async lastRun(key) {
      return job?.key === key ? job : null;
    },
    // Cancelling a run in another workflow run is the workflow's own business (its concurrency group):
    // from here, only this process's run could be cancelled, and a cancel command starts none.
    async cancel() {
      return null;
    },
    async drain() {},
    async shutdown() {},
    started: () => (job?.state === 'queued' ? job : null),
  };
}

function info(fields: Pick<JobInfo, 'runId' | 'key' | 'actor'> & Partial<JobInfo>): JobInfo {
  return {
    state: 'pending',
    enqueuedAt: Date.now(),
    startedAt: null,
    finishedAt: null,
    tries: 0,
    progress: 'queued',
    outcome: null,
    cancelRequestedBy: null,
    artifactsDir: null,
    ...fields,
  };
}
