// The job queue port (docs/design.md §1.2, §4): a trigger stores its job before the webhook is answered;
// workers hold jobs while they run them, report progress, and end them done, failed or cancelled.
// One engine per store implements it (open-queues.ts): the embedded queue on SQLite, whose store
// leases the jobs (durable-queue.ts); pg-boss on PostgreSQL, which holds them (pgboss-queue.ts).
import type { AnyStoredJob, EnqueueOutcome, EventData, JobInfo, NewJob, StoredJob } from './run-store.ts';

export interface JobControl {
  signal: AbortSignal;
  report(progress: string): void;
}

export interface JobOutcome {
  state: 'done' | 'failed' | 'cancelled';
  outcome: string;
  artifactsDir?: string | null;
}

export type JobRunner = (job: AnyStoredJob, control: JobControl) => Promise<JobOutcome>;

/** The abort reason when the process stops: the job is released, not ended, and runs again later. */
export class Shutdown extends Error {
  constructor() {
    super('fixloop is restarting');
    this.name = 'Shutdown';
  }
}

/** The abort reason of `/fix cancel`, with who asked. */
export class Cancelled extends Error {
  readonly by: string | null;
  constructor(by: string | null) {
    super(`cancelled by ${by ?? 'someone'}`);
    this.name = 'Cancelled';
    this.by = by;
  }
}

export interface JobQueue {
  /** Stores a webhook delivery for this (event-lane) queue's workers; false for a redelivery. */
  accept(event: EventData): Promise<boolean>;
  enqueue(job: NewJob, actor: string | null, deliveryId: string | null): Promise<EnqueueOutcome>;
  /** Makes a stored job claimable once its trigger has said so to the person who asked. */
  markReady(runId: string, patch: Record<string, unknown>): Promise<void>;
  status(key: string): Promise<JobInfo | null>;
  countRuns(key: string, trigger: string): Promise<number>;
  lastRun(key: string): Promise<StoredJob | null>;
  /** Asks the active job of `key` to stop; a job running in this process stops at once. */
  cancel(key: string, by: string): Promise<JobInfo | null>;
  /** Starts taking jobs. Jobs left by a crashed process are taken again, or given up and handed to `onAbandoned`. */
  start(runner: JobRunner, onAbandoned?: (job: AnyStoredJob) => Promise<void>): Promise<void>;
  /** Resolves when nothing is queued or running here (tests, and a clean stop). */
  drain(): Promise<void>;
  /** Stops claiming; running jobs get `graceMs` to finish, then are aborted and released. */
  shutdown(graceMs: number): Promise<void>;
}
