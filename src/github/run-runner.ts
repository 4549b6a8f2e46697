// The run lane's worker for the App: everything rebuilt from the stored job (it may run in another
// process, or after a restart): the installation's Octokit (from the run's credential reference), the
// forge, the status comment by its id.
import type { Probot } from 'probot';
import type { JobRunner } from '../jobs/job-queue.ts';
import { isRun, type AnyStoredJob } from '../jobs/run-store.ts';
import { runJobData, type RunJobData } from '../forge/run-job-data.ts';
import type { SharedRunDeps } from '../loop/local-run.ts';
import type { Forge } from '../forge/forge.ts';
import { abandonedMessage } from '../forge/messages.ts';
import { appInstallationOf } from './credential-ref.ts';
import { createOctokitForge } from './octokit-forge.ts';
import { runJob } from '../forge/run-job.ts';
import { storedRunStatus } from '../forge/status-comment.ts';

export interface RunRunnerOptions {
  /** What every run of this process gets (the sandbox, its folders and caches, the engines), read at each job. */
  runDeps: SharedRunDeps;
  installationToken(app: Probot, installationId: number, repositoryId: number): Promise<string>;
}

export function createRunRunner(
  app: Probot,
  options: RunRunnerOptions,
): { runner: JobRunner; onAbandoned: (job: AnyStoredJob) => Promise<void> } {
  const forgeFor = async (data: RunJobData): Promise<Forge> => {
    const { installationId, repositoryId } = appInstallationOf(data.credentialRef);
    return createOctokitForge({
      octokit: await app.auth(installationId),
      owner: data.plan.owner,
      repo: data.plan.repo,
      installationToken: () => options.installationToken(app, installationId, repositoryId),
    });
  };
  return {
    async runner(job, control) {
      if (!isRun(job)) throw new Error(`not a run: ${job.runId}`);
      const data = runJobData(job);
      const forge = await forgeFor(data);
      const log = app.log.child({ runId: data.runId });
      const status = storedRunStatus(forge, data, log);
      return runJob(data, { forge, status, log, runDeps: options.runDeps }, control);
    },
    /** A run given up after its worker died too often: the person who asked is told. */
    async onAbandoned(job) {
      if (!isRun(job)) return;
      const data = runJobData(job);
      const forge = await forgeFor(data);
      const status = storedRunStatus(forge, data);
      await status.update(abandonedMessage(data.runId, job.outcome ?? 'its worker stopped', data.config.triggers.command));
    },
  };
}
