// A delivery's trigger dependencies from its Probot context: the repository's forge on the
// installation's Octokit, the fix service, the run queue, the context's logger, and the repository's
// config through Probot's loader.
import type { Logger } from 'pino';
import type { Context, Probot } from 'probot';
import { createFixService } from '../forge/fix-service.ts';
import { configErrorMessage } from '../forge/messages.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { TriggerDeps } from '../triggers/trigger-deps.ts';
import { loadRepoConfig } from './load-repo-config.ts';
import { createOctokitForge } from './octokit-forge.ts';
import type { SourcePayload } from './webhook-trigger.ts';

export interface TriggerDepsOptions {
  queue: JobQueue;
  installationToken(app: Probot, installationId: number, repositoryId: number): Promise<string>;
}

export function triggerDepsFromContext(app: Probot, context: Context, source: SourcePayload, options: TriggerDepsOptions): TriggerDeps {
  const { repository } = source;
  const installationId = source.installation?.id ?? 0;
  const log = context.log as unknown as Logger;
  const forge = createOctokitForge({
    octokit: context.octokit,
    owner: repository.owner.login,
    repo: repository.name,
    installationToken: () => options.installationToken(app, installationId, repository.id),
  });
  const service = createFixService(forge, log, { installationId, repositoryId: repository.id }, { queue: options.queue });
  return {
    forge,
    service,
    queue: options.queue,
    log,
    async config(replyTo) {
      const loaded = await loadRepoConfig(context);
      if (loaded.ok) return loaded.config;
      log.warn({ repo: `${forge.owner}/${forge.repo}` }, 'invalid .github/fixloop.yml');
      if (replyTo !== null) await forge.comment(replyTo, configErrorMessage(loaded.message));
      return null;
    },
  };
}
