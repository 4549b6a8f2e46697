// The app's own settings, from its environment (never from a repository): where runs keep their
// artifacts, how many run at once, which sandbox.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AppOptions } from './app.ts';
import { installationTokenFor } from './github/app-token.ts';
import { createMemoryQueue } from './jobs/memory-queue.ts';
import { createProcessSandbox } from './sandbox/process-sandbox.ts';
import { CodedError } from './coded-error.ts';

export class AppSettingsError extends CodedError<'BAD_SETTING'> {}

export function appOptionsFromEnvironment(env: NodeJS.ProcessEnv, onJobError: (error: unknown) => void): AppOptions {
  const dataDir = resolve(env.FIXLOOP_DATA_DIR ?? '.fixloop');
  const concurrency = Number(env.FIXLOOP_CONCURRENCY ?? '1');
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new AppSettingsError('BAD_SETTING', `FIXLOOP_CONCURRENCY must be a positive integer (got \`${env.FIXLOOP_CONCURRENCY}\`)`);
  }
  const artifactsRoot = join(dataDir, 'runs');
  try {
    mkdirSync(artifactsRoot, { recursive: true });
  } catch (error) {
    throw new AppSettingsError('BAD_SETTING', `FIXLOOP_DATA_DIR \`${dataDir}\` cannot be created: ${(error as Error).message}`);
  }
  const appId = env.APP_ID ? Number(env.APP_ID) : undefined;
  return {
    queue: createMemoryQueue({ concurrency, onError: onJobError }),
    sandbox: createProcessSandbox(),
    artifactsRoot,
    tmpRoot: env.FIXLOOP_TMP_DIR ?? tmpdir(),
    installationToken: installationTokenFor,
    ...(appId !== undefined && Number.isInteger(appId) ? { appId } : {}),
  };
}
