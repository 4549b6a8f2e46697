// The run store's ports (docs/design.md §4), one per concern: the deliveries seen, the jobs' records, the
// append-only audit trail, and the daily spend ledger of the LLM engines. `RunStore` is their
// composition, implemented by embedded SQLite (sqlite-store.ts, with leases for its queue) and by
// PostgreSQL (postgres-store.ts, whose jobs pg-boss holds). A job's data is opaque here: stored as
// JSON, handed back as it was.
import type { SpendLedger } from '../core/spend-ledger.ts';

/** pending: stored, its status comment not posted yet; queued: claimable; running: leased. */
export type JobState = 'pending' | 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
export const ACTIVE_STATES: readonly JobState[] = ['pending', 'queued', 'running'];

/** Two lanes share the store: quick webhook handling never waits behind long runs. */
export type Lane = 'run' | 'event';

/** A new run as its trigger stores it: the columns the store queries, and the data it keeps opaque. */
export interface NewJob {
  runId: string;
  /** One active job per key (an issue or pull request). */
  key: string;
  /** The kind of trigger that asked (label, command, check, …), for the loop guards' counts. */
  trigger: string;
  /** Everything a worker needs to run the job, in any process, after any restart; never read here. */
  data: Record<string, unknown>;
}

/** A webhook delivery stored as it came, before its 2xx: handled by the event lane's workers. */
export interface EventData {
  delivery: string;
  name: string;
  payload: unknown;
  /** Whose credentials handle it, as the forge's adapter wrote it (see RunJobData); opaque here. */
  credentialRef: string;
}

export interface JobInfo {
  runId: string;
  key: string;
  state: JobState;
  actor: string | null;
  enqueuedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  tries: number;
  /** What the job last reported (phase, attempt i/N), for `/fix status`. */
  progress: string;
  outcome: string | null;
  cancelRequestedBy: string | null;
  artifactsDir: string | null;
}

/** A stored job of either lane, with its data as it was stored (a run's, or an `EventData`). */
export interface StoredJob extends JobInfo {
  lane: Lane;
  data: unknown;
}

/** Kept as a name for what a worker claims: a job of either lane. */
export type AnyStoredJob = StoredJob;

export function isRun(job: StoredJob): boolean {
  return job.lane === 'run';
}

export interface AuditEvent {
  runId: string;
  at: number;
  kind: string;
  data: Record<string, unknown>;
}

export type EnqueueOutcome = { accepted: true } | { accepted: false; active: JobInfo };

/** Webhook deliveries: each id is handled once, whatever GitHub redelivers. */
export interface DeliveryStore {
  /** True the first time a webhook delivery id is seen; false for a redelivery. */
  recordDelivery(id: string, event: string): Promise<boolean>;
  /** Stores a delivery on the event lane, ready to claim, in one transaction; false for a redelivery. */
  acceptEvent(data: EventData): Promise<boolean>;
}

/**
 * Jobs as the store records them, whichever queue engine hands them to workers: one active job per
 * key, state, progress, cancel requests and outcome. A job's holder (a lease owner on the embedded
 * queue, an attempt on pg-boss) is the only one that can end it or hand it back.
 */
export interface JobStore {
  /** Stores a new job as `pending`, unless the key already has an active one. */
  enqueue(job: NewJob, actor: string | null, deliveryId: string | null): Promise<EnqueueOutcome>;
  /** pending → queued, with what the trigger learned meanwhile (merged into the job's data). */
  markReady(runId: string, patch: Record<string, unknown>): Promise<void>;
  /** Ends the job; nothing changes unless `holder` still holds it (a job handed on is not ended by its old holder). */
  finish(
    runId: string,
    holder: string,
    state: 'done' | 'failed' | 'cancelled',
    outcome: string,
    artifactsDir?: string | null,
  ): Promise<void>;
  /** Back to queued (a graceful shutdown). The embedded queue counts no try for it. */
  release(runId: string, holder: string): Promise<void>;
  requestCancel(key: string, by: string): Promise<JobInfo | null>;
  active(key: string): Promise<JobInfo | null>;
  /** A run (the run lane) by id. */
  get(runId: string): Promise<StoredJob | null>;
  /** How many runs a key has had from one kind of trigger (the failing-check loop guard). */
  countRuns(key: string, trigger: string): Promise<number>;
  /** The most recent run of a key, whatever its state (for `/fix retry`). */
  lastRun(key: string): Promise<StoredJob | null>;
  /** Recent jobs of a lane: runs by default; `event` for the stored deliveries (`fixloop runs`). */
  list(limit: number, lane?: Lane): Promise<JobInfo[]>;
}

/**
 * Claims with a lease, for the embedded queue (durable-queue.ts): the store itself decides who holds
 * a job and until when, and takes back what a dead worker held. (On PostgreSQL, pg-boss decides.)
 */
export interface JobLeases {
  /** Takes the oldest queued job of the lane for `owner` until `leaseUntil`. */
  claim(owner: string, leaseMs: number, lane?: Lane): Promise<StoredJob | null>;
  /** Extends the lease; null when it was lost (expired and taken, or the job ended). */
  heartbeat(
    runId: string,
    owner: string,
    leaseMs: number,
    progress?: string,
  ): Promise<{ cancelRequestedBy: string | null } | null>;
  /**
   * Jobs whose lease expired (their process died): queued again while tries are left, else failed
   * and returned so someone can be told. Pending jobs older than `pendingMs` become queued.
   */
  recover(maxTries: number, pendingMs: number): Promise<{ requeued: StoredJob[]; abandoned: StoredJob[] }>;
}

/** The audit trail: append-only, every step of every run. */
export interface AuditTrail {
  append(runId: string, kind: string, data?: Record<string, unknown>): Promise<void>;
  events(runId: string): Promise<AuditEvent[]>;
}

/** Everything one store holds; the spend ledger lives there so every run and process sees one total. */
export interface RunStore extends DeliveryStore, JobStore, AuditTrail, SpendLedger {
  close(): Promise<void>;
}

/** The embedded store: its jobs are claimed with leases. */
export interface LeasedRunStore extends RunStore, JobLeases {}
