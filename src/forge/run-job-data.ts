// What a stored run carries for its worker, in any process, after any restart: the plan, the
// config, the credentials' reference and the status comment's id. The run store keeps it as opaque
// JSON; this module is the one place that gives it its type back, runs stored by older versions included.
import type { RepoConfig } from '../core/repo-config.ts';
import type { NewJob, StoredJob } from '../jobs/run-store.ts';
import type { RunPlan } from './run-plan.ts';

export interface RunJobData {
  runId: string;
  key: string;
  /**
   * Whose credentials the run acts with, as the forge's adapter wrote it and only it reads (GitHub:
   * the App's installation and the repository). Never a secret: the worker resolves it to a token.
   */
  credentialRef: string;
  plan: RunPlan;
  config: RepoConfig;
  statusCommentId: number | null;
}

/** The job to store for a run: the columns the store queries, and the data it keeps for the worker. */
export function newRunJob(data: RunJobData): NewJob {
  return { runId: data.runId, key: data.key, trigger: data.plan.kind, data: { ...data } };
}

/** A stored run's data, as its trigger stored it; a delivery (the event lane) is refused. */
export function runJobData(job: StoredJob): RunJobData {
  const data = job.data as (Partial<RunJobData> & Record<string, unknown>) | null;
  if (job.lane !== 'run' || !data?.plan || !data.config) throw new Error(`job ${job.runId} is not a fix run`);
  if (typeof data.credentialRef === 'string') return data as RunJobData;
  // Stored before credentials became one reference: the adapter's own fields (GitHub's installation
  // and repository ids) sat beside the plan. Together, as JSON, they are the reference that adapter reads.
  const { runId, key, plan, config, statusCommentId, credentialRef: _none, ...adapterFields } = data;
  return {
    runId: runId ?? job.runId,
    key: key ?? job.key,
    plan,
    config,
    statusCommentId: statusCommentId ?? null,
    credentialRef: JSON.stringify(adapterFields),
  };
}

/** What the trigger learned after storing the run (its status comment), merged into the data. */
export function statusCommentPatch(statusCommentId: number | null): Partial<RunJobData> {
  return { statusCommentId };
}
