// A delivery's trigger dependencies: the repository's forge, the fix service, the run queue, the
// logger, and the repository's config through Probot's loader. The App builds them from a webhook's
// context and the installation (triggerDepsFromContext); the GitHub Action from the runner's event
// file and its token (src/cli/action/), through the same `triggerDepsFor`.
import type { Logger } from 'pino';
import type { Context, Probot } from 'probot';
import { createFixService } from '../forge/fix-service.ts';
import type { Forge } from '../forge/forge.ts';
import { configErrorMessage } from '../forge/messages.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { TriggerDeps } from '../triggers/trigger-deps.ts';
import { appCredentialRef } from './credential-ref.ts';
import { loadRepoConfig } from './load-repo-config.ts';
import { createOctokitForge } from './octokit-forge.ts';
import type { SourcePayload } from './webhook-trigger.ts';

export interface TriggerDepsOptions {
  queue: JobQueue;
  installationToken(app: Probot, installationId: number, repositoryId: number): Promise<string>;
}

/** What any host hands over for one delivery: where the config comes from, the forge, the queue. */
export interface RepositoryAccess {
  /** The delivery's Probot context: `.github/fixloop.yml` is read through its loader. */
  context: Pick<Context, 'config'>;
  forge: Forge;
  log: Logger;
  /** Kept with a stored run, so a worker can fetch a token for it later (credential-ref.ts). */
  credentialRef: string;
  queue: JobQueue;
}

export function triggerDepsFromContext(
  app: Probot,
  context: Context,
  source: SourcePayload,
  options: TriggerDepsOptions,
): TriggerDeps {
  const { repository } = source;
  const installationId = source.installation?.id ?? 0;
  const forge = createOctokitForge({
    octokit: context.octokit,
    owner: repository.owner.login,
    repo: repository.name,
    installationToken: () => options.installationToken(app, installationId, repository.id),
  });
  const log = context.log as unknown as Logger;
  return triggerDepsFor({
    context,
    forge,
    log,
    credentialRef: appCredentialRef({ installationId, repositoryId: repository.id }),
    queue: options.queue,
  });
}

export function triggerDepsFor(access: RepositoryAccess): TriggerDeps {
  const { context, forge, log, queue } = access;
  const service = createFixService(forge, log, access.credentialRef, { queue });
  return {
    forge,
    service,
    queue,
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
