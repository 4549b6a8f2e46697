// The run store port (DESIGN.md §4): jobs with leases, the deliveries seen, and an append-only audit
// trail of every run, and the daily spend ledger of the LLM engines. Embedded SQLite implements it
// (sqlite-store.ts), and so does PostgreSQL (postgres-store.ts).
import type { RepoConfig } from '../core/repo-config.ts';
import type { RunPlan } from '../forge/run-plan.ts';
import type { SpendLedger } from '../core/spend-ledger.ts';

/** pending: stored, its status comment not posted yet; queued: claimable; running: leased. */
export type JobState = 'pending' | 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
export const ACTIVE_STATES: readonly JobState[] = ['pending', 'queued', 'running'];

/** Everything a worker needs to run a job, in any process, after any restart. */
export interface JobData {
  runId: string;
  key: string;
  installationId: number;
  repositoryId: number;
  plan: RunPlan;
  config: RepoConfig;
  statusCommentId: number | null;
}

/** A webhook delivery stored as it came, before its 2xx: handled by the event lane's workers. */
export interface EventData {
  delivery: string;
  name: string;
  payload: unknown;
  installationId: number;
}

/** Two lanes share the store: quick webhook handling never waits behind long runs. */
export type Lane = 'run' | 'event';

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

export interface StoredJob extends JobInfo {
  data: JobData;
}

export interface StoredEvent extends JobInfo {
  data: EventData;
}

export type AnyStoredJob = StoredJob | StoredEvent;

export function isRun(job: AnyStoredJob): job is StoredJob {
  return 'plan' in job.data;
}

export interface AuditEvent {
  runId: string;
  at: number;
  kind: string;
  data: Record<string, unknown>;
}

export type EnqueueOutcome = { accepted: true } | { accepted: false; active: JobInfo };

/** The spend ledger lives in the store so that every run and process sharing it sees one total. */
export interface RunStore extends SpendLedger {
  /** True the first time a webhook delivery id is seen; false for a redelivery. */
  recordDelivery(id: string, event: string): Promise<boolean>;
  /** Stores a delivery on the event lane, ready to claim, in one transaction; false for a redelivery. */
  acceptEvent(data: EventData): Promise<boolean>;
  /** Stores a new job as `pending`, unless the key already has an active one. */
  enqueue(data: JobData, actor: string | null, deliveryId: string | null): Promise<EnqueueOutcome>;
  /** pending → queued, with what the trigger learned meanwhile (its status comment). */
  markReady(runId: string, patch: Partial<Pick<JobData, 'statusCommentId'>>): Promise<void>;
  /** Takes the oldest queued job of the lane for `owner` until `leaseUntil`. */
  claim(owner: string, leaseMs: number, lane?: Lane): Promise<AnyStoredJob | null>;
  /** Extends the lease; null when it was lost (expired and taken, or the job ended). */
  heartbeat(runId: string, owner: string, leaseMs: number, progress?: string): Promise<{ cancelRequestedBy: string | null } | null>;
  finish(runId: string, owner: string, state: 'done' | 'failed' | 'cancelled', outcome: string, artifactsDir?: string | null): Promise<void>;
  /** Back to queued without a try counted (a graceful shutdown). */
  release(runId: string, owner: string): Promise<void>;
  /**
   * Jobs whose lease expired (their process died): queued again while tries are left, else failed
   * and returned so someone can be told. Pending jobs older than `pendingMs` become queued.
   */
  recover(maxTries: number, pendingMs: number): Promise<{ requeued: AnyStoredJob[]; abandoned: AnyStoredJob[] }>;
  requestCancel(key: string, by: string): Promise<JobInfo | null>;
  active(key: string): Promise<JobInfo | null>;
  get(runId: string): Promise<StoredJob | null>;
  /** How many runs an issue or pull request has had from one kind of trigger (the failing-check loop guard). */
  countRuns(key: string, trigger: string): Promise<number>;
  /** The most recent run of an issue or pull request, whatever its state (for `/fix retry`). */
  lastRun(key: string): Promise<StoredJob | null>;
  /** Recent runs (the run lane). */
  list(limit: number): Promise<JobInfo[]>;
  /** The audit trail: append-only. */
  append(runId: string, kind: string, data?: Record<string, unknown>): Promise<void>;
  events(runId: string): Promise<AuditEvent[]>;
  close(): Promise<void>;
}
