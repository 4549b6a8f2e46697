// The App's credentials for CLI commands that act on GitHub for a stored run (publish, replay of a
// private repository): Probot's own environment (APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, GHE_HOST).
import { existsSync } from 'node:fs';
import type { Forge } from '../forge/forge.ts';
import type { RunJobData } from '../forge/run-job-data.ts';
import type { CloneAuth } from '../core/clone-auth.ts';
import { UsageError } from './usage-error.ts';

export interface AppAccess {
  forgeFor(data: RunJobData): Promise<Forge>;
  cloneAuthFor(data: RunJobData): Promise<CloneAuth>;
}

export function hasAppCredentials(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.APP_ID && (env.PRIVATE_KEY || env.PRIVATE_KEY_PATH));
}

export async function appAccessFromEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<AppAccess> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  if (!hasAppCredentials(env))
    throw new UsageError(
      'this command acts as the GitHub App: set APP_ID and PRIVATE_KEY or PRIVATE_KEY_PATH (see .env.example)',
    );
  const [{ createProbot }, { createOctokitForge, gitAuthHeader }, { installationTokenFor }, { appInstallationOf }] =
    await Promise.all([
      import('probot'),
      import('../github/octokit-forge.ts'),
      import('../github/app-token.ts'),
      import('../github/credential-ref.ts'),
    ]);
  const probot = createProbot({ env });
  const token = (data: RunJobData) => {
    const { installationId, repositoryId } = appInstallationOf(data.credentialRef);
    return installationTokenFor(probot, installationId, repositoryId);
  };
  return {
    async forgeFor(data) {
      const { installationId } = appInstallationOf(data.credentialRef);
      return createOctokitForge({
        octokit: await probot.auth(installationId),
        owner: data.plan.owner,
        repo: data.plan.repo,
        installationToken: () => token(data),
      });
    },
    async cloneAuthFor(data) {
      return gitAuthHeader(await token(data));
    },
  };
}
