// A jobs-table row as both stores return it (PostgreSQL hands BIGINTs back as strings), and its
// reading into the store's types.
import type { JobInfo, Lane, StoredJob } from './run-store.ts';

export interface JobRow {
  run_id: string;
  key: string;
  lane?: string;
  state: string;
  data: string;
  actor: string | null;
  enqueued_at: number | string;
  started_at: number | string | null;
  finished_at: number | string | null;
  tries: number;
  progress: string;
  outcome: string | null;
  cancel_requested_by: string | null;
  artifacts_dir: string | null;
}

const time = (v: number | string | null): number | null => (v === null ? null : Number(v));

export function jobInfo(row: JobRow): JobInfo {
  return {
    runId: row.run_id,
    key: row.key,
    state: row.state as JobInfo['state'],
    actor: row.actor,
    enqueuedAt: Number(row.enqueued_at),
    startedAt: time(row.started_at),
    finishedAt: time(row.finished_at),
    tries: row.tries,
    progress: row.progress,
    outcome: row.outcome,
    cancelRequestedBy: row.cancel_requested_by,
    artifactsDir: row.artifacts_dir,
  };
}

export function storedJob(row: JobRow): StoredJob {
  return { ...jobInfo(row), lane: (row.lane ?? 'run') as Lane, data: JSON.parse(row.data) as unknown };
}
