// The job queue port (DESIGN.md §1.2): webhook handlers enqueue and return at once; workers run jobs.
// The in-process queue implements it today; a durable store and a distributed engine come later behind
// the same interface.

export type JobState = 'queued' | 'running';

export interface JobInfo {
  /** One active job per key (e.g. `owner/repo#12`): a second trigger while it runs is not a second run. */
  key: string;
  runId: string;
  state: JobState;
  enqueuedAt: number;
  startedAt: number | null;
  /** Who asked, for `/fix status`. */
  actor: string | null;
  /** What the job last reported (phase, attempt i/N), for `/fix status`. */
  progress: string;
}

export interface Job {
  key: string;
  runId: string;
  actor: string | null;
  run(control: JobControl): Promise<void>;
}

export interface JobControl {
  signal: AbortSignal;
  report(progress: string): void;
}

export type EnqueueResult = { accepted: true } | { accepted: false; active: JobInfo };

export interface JobQueue {
  enqueue(job: Job): EnqueueResult;
  status(key: string): JobInfo | null;
  /** Aborts a queued or running job; false when nothing is active under that key. */
  cancel(key: string, by: string | null): boolean;
  /** Resolves when every accepted job has finished (shutdown and tests). */
  drain(): Promise<void>;
}
