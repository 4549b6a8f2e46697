// The app's own settings, from its environment (never from a repository): where runs keep their
// artifacts, how many run at once, which sandbox.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AppOptions } from './app.ts';
import { installationTokenFor } from './github/app-token.ts';
import { githubTimeoutMs } from './github/timed-fetch.ts';
import { embeddedQueues, sharedQueues } from './jobs/open-queues.ts';
import { parseSandboxChoice, selectSandbox } from './sandbox/select-sandbox.ts';
import { CodedError } from './core/coded-error.ts';
import { cacheRootFrom } from './core/data-dir.ts';

export class AppSettingsError extends CodedError<'BAD_SETTING'> {}

export interface AppEnvironment {
  options: AppOptions;
  /** Set when runs are not isolated: logged at start (reports say it too). */
  sandboxWarning: string | null;
}

/** A job's error, with the job when there is one (its run id; `event-<delivery id>` for a delivery). */
export type JobErrorHandler = (error: unknown, job?: { runId: string } | null) => void;

export async function appOptionsFromEnvironment(env: NodeJS.ProcessEnv, onJobError: JobErrorHandler): Promise<AppEnvironment> {
  const dataDir = resolve(env.FIXLOOP_DATA_DIR ?? '.fixloop');
  const concurrency = Number(env.FIXLOOP_CONCURRENCY ?? '1');
  const leaseSeconds = Number(env.FIXLOOP_LEASE_SECONDS ?? '30');
  if (!Number.isFinite(leaseSeconds) || leaseSeconds < 1) {
    throw new AppSettingsError(
      'BAD_SETTING',
      `FIXLOOP_LEASE_SECONDS must be a number of seconds, at least 1 (got \`${env.FIXLOOP_LEASE_SECONDS}\`)`,
    );
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new AppSettingsError(
      'BAD_SETTING',
      `FIXLOOP_CONCURRENCY must be a positive integer (got \`${env.FIXLOOP_CONCURRENCY}\`)`,
    );
  }
  const artifactsRoot = join(dataDir, 'runs');
  try {
    mkdirSync(artifactsRoot, { recursive: true });
  } catch (error) {
    throw new AppSettingsError('BAD_SETTING', `FIXLOOP_DATA_DIR \`${dataDir}\` cannot be created: ${(error as Error).message}`);
  }
  const appId = env.APP_ID ? Number(env.APP_ID) : undefined;
  let selected;
  try {
    selected = selectSandbox(parseSandboxChoice(env.FIXLOOP_SANDBOX, 'FIXLOOP_SANDBOX'), env);
  } catch (error) {
    throw new AppSettingsError('BAD_SETTING', (error as Error).message);
  }
  // Runs, deliveries and the audit trail live in the data directory (a restart loses nothing), or in
  // PostgreSQL when several machines share them (DATABASE_URL), with pg-boss carrying both lanes.
  const { store, queue, inbox } = env.DATABASE_URL
    ? await sharedQueues(env.DATABASE_URL, env, { concurrency, leaseSeconds, onJobError })
    : await embeddedQueues(dataDir, { concurrency, leaseSeconds, onJobError });
  const options: AppOptions = {
    queue,
    // Deliveries are handled apart from runs, a few at once, so a reply never waits behind a run.
    inbox,
    // FIXLOOP_WORKERS=0: this process only stores deliveries; `fixloop worker` processes handle them.
    runWorkers: env.FIXLOOP_WORKERS !== '0',
    runDeps: {
      sandbox: selected.sandbox,
      // Setup (e.g. `npm ci`) reaches the network only when the operator says so; tests never do.
      setupNetwork: /^(1|true|yes)$/i.test(env.FIXLOOP_SETUP_NETWORK ?? ''),
      // LLM engines read their models, keys and ceilings here; each repository's daily spend is kept in
      // the store, so the budget holds across runs, processes and machines.
      engineEnvironment: { env, ledger: store },
      artifactsRoot,
      // Dependency caches, one folder per repository (FIXLOOP_CACHE_DIR, else the data folder's `cache`).
      cacheDir: cacheRootFrom(env, dataDir),
      tmpRoot: env.FIXLOOP_TMP_DIR ?? tmpdir(),
    },
    installationToken: installationTokenFor,
    // A few requests, each with its deadline: past this, GitHub is not answering (timed-fetch.ts).
    deliveryDeadlineMs: 4 * (githubTimeoutMs(env) ?? 15_000),
    ...(appId !== undefined && Number.isInteger(appId) ? { appId } : {}),
  };
  return { options, sandboxWarning: selected.warning };
}
