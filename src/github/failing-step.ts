// The command of the step that failed in a failing check on GitHub: the failed job and step of the
// workflow run (a check suite's failed check run is an Actions job), then that step's `run:` in the
// workflow file at the failing commit (workflow-step.ts). Three or four documented REST operations;
// null when GitHub does not say (a check of another app, a step with no `run:`).
import type { ProbotOctokit } from 'probot';
import { stepCommand } from './workflow-step.ts';

type Octokit = InstanceType<typeof ProbotOctokit>;
interface Repo {
  owner: string;
  repo: string;
}
interface FailedStep {
  job: string;
  step: string | null;
  runId: number;
}
interface JobFields {
  name: string;
  conclusion: string | null;
  run_id: number;
  steps?: Array<{ name: string; conclusion: string | null }>;
}

/** What the adapter wrote in a failing check event: `workflow-run:<id>:<path>` or `check-suite:<id>`. */
export function failingCheckSource(kind: 'workflow-run' | 'check-suite', id: number, path?: string | null): string {
  return kind === 'workflow-run' ? `workflow-run:${id}:${path ?? ''}` : `check-suite:${id}`;
}

function failedStepOf(job: JobFields): FailedStep {
  const step = job.steps?.find((s) => s.conclusion === 'failure')?.name ?? null;
  return { job: job.name, step, runId: job.run_id };
}

async function failedInRun(octokit: Octokit, repo: Repo, runId: number): Promise<FailedStep | null> {
  const { data } = await octokit.rest.actions.listJobsForWorkflowRun({ ...repo, run_id: runId, filter: 'latest', per_page: 100 });
  const job = data.jobs.find((j) => j.conclusion === 'failure');
  return job ? failedStepOf(job) : null;
}

async function failedInSuite(octokit: Octokit, repo: Repo, suiteId: number): Promise<FailedStep | null> {
  const { data } = await octokit.rest.checks.listForSuite({ ...repo, check_suite_id: suiteId, per_page: 100 });
  const run = data.check_runs.find((r) => r.conclusion === 'failure');
  if (!run) return null;
  // An Actions job's check run has the job's id.
  const { data: job } = await octokit.rest.actions.getJobForWorkflowRun({ ...repo, job_id: run.id });
  return failedStepOf(job);
}

export async function failingCommand(octokit: Octokit, repo: Repo, source: string, sha: string): Promise<string | null> {
  const match = /^(workflow-run|check-suite):(\d+)(?::(.*))?$/.exec(source);
  if (!match) return null;
  const id = Number(match[2]);
  const failed = match[1] === 'workflow-run' ? await failedInRun(octokit, repo, id) : await failedInSuite(octokit, repo, id);
  if (!failed) return null;
  const named = match[3] || (await octokit.rest.actions.getWorkflowRun({ ...repo, run_id: failed.runId })).data.path;
  // A workflow run's path may carry the ref it was read at (`…/ci.yml@refs/heads/main`).
  const path = named.split('@')[0];
  if (!path) return null;
  const { data } = await octokit.rest.repos.getContent({ ...repo, path, ref: sha, mediaType: { format: 'raw' } });
  return typeof data === 'string' ? stepCommand(data, failed.job, failed.step) : null;
}
