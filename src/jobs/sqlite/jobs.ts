// Jobs and leases on SQLite: one active job per key (a partial unique index), claims that are one
// atomic `UPDATE … RETURNING`, heartbeats, and recovery of what a dead process held. Every step of a
// run is recorded in the audit trail.
import type { DatabaseSync as Database, StatementSync } from 'node:sqlite';
import { jobInfo, storedJob, type JobRow } from '../job-row.ts';
import { ACTIVE_STATES, type EnqueueOutcome, type JobLeases, type JobStore, type StoredJob } from '../run-store.ts';
import type { AppendNow } from './audit.ts';
import { inTransaction } from './open-database.ts';

type Statements = ReturnType<typeof prepare>;

function prepare(db: Database) {
  const active = ACTIVE_STATES.map((s) => `'${s}'`).join(', ');
  return {
    insert: db.prepare(
      `INSERT INTO jobs (run_id, key, state, data, actor, delivery_id, enqueued_at, trigger) VALUES (?, ?, 'pending', ?, ?, ?, ?, ?)`,
    ),
    activeFor: db.prepare(`SELECT * FROM jobs WHERE key = ? AND state IN (${active})`),
    ready: db.prepare(`UPDATE jobs SET state = 'queued', data = ? WHERE run_id = ? AND state = 'pending'`),
    claim: db.prepare(
      `UPDATE jobs SET state = 'running', lease_owner = ?, lease_until = ?, tries = tries + 1, started_at = coalesce(started_at, ?)
       WHERE run_id = (SELECT run_id FROM jobs WHERE lane = ? AND state = 'queued' ORDER BY enqueued_at, rowid LIMIT 1) RETURNING *`,
    ),
    heartbeat: db.prepare(
      `UPDATE jobs SET lease_until = ?, progress = coalesce(?, progress) WHERE run_id = ? AND lease_owner = ? AND state = 'running' RETURNING cancel_requested_by`,
    ),
    finish: db.prepare(
      `UPDATE jobs SET state = ?, outcome = ?, finished_at = ?, lease_owner = NULL, lease_until = NULL, artifacts_dir = coalesce(?, artifacts_dir) WHERE run_id = ? AND lease_owner = ?`,
    ),
    release: db.prepare(
      `UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL, tries = max(tries - 1, 0) WHERE run_id = ? AND lease_owner = ? AND state = 'running'`,
    ),
    expired: db.prepare(`SELECT * FROM jobs WHERE state = 'running' AND lease_until < ?`),
    requeue: db.prepare(
      `UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL WHERE run_id = ? AND state = 'running' AND lease_until < ?`,
    ),
    abandon: db.prepare(
      `UPDATE jobs SET state = 'failed', outcome = ?, finished_at = ?, lease_owner = NULL, lease_until = NULL WHERE run_id = ? AND state = 'running' AND lease_until < ?`,
    ),
    stalePending: db.prepare(`UPDATE jobs SET state = 'queued' WHERE state = 'pending' AND enqueued_at < ? RETURNING *`),
    cancel: db.prepare(`UPDATE jobs SET cancel_requested_by = ? WHERE key = ? AND state IN (${active}) RETURNING *`),
    get: db.prepare(`SELECT * FROM jobs WHERE run_id = ? AND lane = 'run'`),
    list: db.prepare(`SELECT * FROM jobs WHERE lane = ? ORDER BY enqueued_at DESC, rowid DESC LIMIT ?`),
    lastRun: db.prepare(`SELECT * FROM jobs WHERE lane = 'run' AND key = ? ORDER BY enqueued_at DESC, rowid DESC LIMIT 1`),
    countRuns: db.prepare(`SELECT count(*) AS n FROM jobs WHERE lane = 'run' AND key = ? AND trigger = ?`),
  };
}

const row = (statement: StatementSync, ...params: Array<string | number | null>) =>
  statement.get(...params) as JobRow | undefined;
const rows = (statement: StatementSync, ...params: Array<string | number | null>) =>
  statement.all(...params) as unknown as JobRow[];

export function sqliteJobs(db: Database, appendNow: AppendNow): JobStore & JobLeases {
  const q = prepare(db);
  const now = () => Date.now();
  return {
    async enqueue(job, actor, deliveryId): Promise<EnqueueOutcome> {
      try {
        q.insert.run(job.runId, job.key, JSON.stringify(job.data), actor, deliveryId, now(), job.trigger);
      } catch (error) {
        const existing = row(q.activeFor, job.key);
        if (existing) return { accepted: false, active: jobInfo(existing) };
        throw error;
      }
      appendNow(job.runId, 'queued', { key: job.key, actor, deliveryId, trigger: job.trigger });
      return { accepted: true };
    },
    async markReady(runId, patch) {
      const stored = row(q.get, runId);
      if (!stored) return;
      q.ready.run(JSON.stringify({ ...(JSON.parse(stored.data) as Record<string, unknown>), ...patch }), runId);
    },
    async claim(owner, leaseMs, lane = 'run') {
      const claimed = row(q.claim, owner, now() + leaseMs, now(), lane);
      if (!claimed) return null;
      // Deliveries are not runs: their trail is the delivery table; runs get every step recorded.
      if (claimed.lane === 'run') appendNow(claimed.run_id, 'claimed', { owner, try: claimed.tries });
      return storedJob(claimed);
    },
    async heartbeat(runId, owner, leaseMs, progress) {
      const answer = q.heartbeat.get(now() + leaseMs, progress ?? null, runId, owner) as
        { cancel_requested_by: string | null } | undefined;
      return answer ? { cancelRequestedBy: answer.cancel_requested_by } : null;
    },
    async finish(runId, owner, state, outcome, artifactsDir = null) {
      // The end and its audit record in one transaction: a worker killed between them loses neither.
      inTransaction(db, () => {
        if (Number(q.finish.run(state, outcome, now(), artifactsDir, runId, owner).changes) === 1 && !runId.startsWith('event-'))
          appendNow(runId, state, { owner, outcome });
      });
    },
    async release(runId, owner) {
      if (Number(q.release.run(runId, owner).changes) === 1) appendNow(runId, 'released', { owner });
    },
    recover: async (maxTries, pendingMs) => recover(q, appendNow, maxTries, pendingMs),
    async requestCancel(key, by) {
      const cancelled = row(q.cancel, by, key);
      if (!cancelled) return null;
      appendNow(cancelled.run_id, 'cancel-requested', { by });
      return jobInfo(cancelled);
    },
    async active(key) {
      const found = row(q.activeFor, key);
      return found ? jobInfo(found) : null;
    },
    async get(runId) {
      const found = row(q.get, runId);
      return found ? storedJob(found) : null;
    },
    async lastRun(key) {
      const found = row(q.lastRun, key);
      return found ? storedJob(found) : null;
    },
    async countRuns(key, trigger) {
      return Number((q.countRuns.get(key, trigger) as { n: number }).n);
    },
    async list(limit, lane = 'run') {
      return rows(q.list, lane, limit).map(jobInfo);
    },
  };
}

function recover(
  q: Statements,
  appendNow: AppendNow,
  maxTries: number,
  pendingMs: number,
): { requeued: StoredJob[]; abandoned: StoredJob[] } {
  const requeued: StoredJob[] = [];
  const abandoned: StoredJob[] = [];
  const at = Date.now();
  for (const stale of rows(q.stalePending, at - pendingMs)) {
    appendNow(stale.run_id, 'recovered', { from: 'pending' });
    requeued.push(storedJob({ ...stale, state: 'queued' }));
  }
  for (const expired of rows(q.expired, at)) {
    if (expired.tries < maxTries) {
      if (Number(q.requeue.run(expired.run_id, at).changes) === 1) {
        appendNow(expired.run_id, 'recovered', { from: 'expired lease', tries: expired.tries });
        requeued.push(storedJob({ ...expired, state: 'queued' }));
      }
    } else {
      const outcome = `the worker running it stopped ${expired.tries} time(s) without finishing`;
      if (Number(q.abandon.run(outcome, at, expired.run_id, at).changes) === 1) {
        appendNow(expired.run_id, 'failed', { outcome });
        abandoned.push(storedJob({ ...expired, state: 'failed', outcome }));
      }
    }
  }
  return { requeued, abandoned };
}
