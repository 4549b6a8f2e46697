// The run a trigger started, run here and now by the App's own run job (src/forge/run-job.ts): clone
// with the token as a git header, check run, the verified loop, the live status comment, publication.
// Afterwards, the run's own record (result.json, report.md) says how it ended.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createMemorySpendLedger } from '../../core/spend-ledger.ts';
import type { RunResult } from '../../core/run-result.ts';
import type { Forge } from '../../forge/forge.ts';
import { runJob } from '../../forge/run-job.ts';
import { runJobData, type RunJobData } from '../../forge/run-job-data.ts';
import { storedRunStatus } from '../../forge/status-comment.ts';
import type { JobOutcome } from '../../jobs/job-queue.ts';
import type { StoredJob } from '../../jobs/run-store.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';

export interface RunHost {
  sandbox: Sandbox;
  setupNetwork: boolean;
  /** RUNNER_TEMP/fixloop: clones, artifacts and caches, gone with the runner. */
  tempRoot: string;
  env: NodeJS.ProcessEnv;
  log: Logger;
  signal: AbortSignal;
}

export interface FinishedRun {
  data: RunJobData;
  outcome: JobOutcome;
  /** The run's result as it recorded it; null when it failed before the loop (a clone refused). */
  result: RunResult | null;
  report: string | null;
}

export async function runStarted(job: StoredJob, forge: Forge, host: RunHost): Promise<FinishedRun> {
  const data = runJobData(job);
  const log = host.log.child({ runId: data.runId });
  const status = storedRunStatus(forge, data, log);
  const artifactsRoot = join(host.tempRoot, 'runs');
  const outcome = await runJob(
    data,
    {
      forge,
      status,
      log,
      runDeps: {
        sandbox: host.sandbox,
        artifactsRoot,
        tmpRoot: host.tempRoot,
        cacheDir: join(host.tempRoot, 'cache'),
        setupNetwork: host.setupNetwork,
        // No store outlives the workflow run: a daily budget (FIXLOOP_DAILY_*) holds per run here.
        engineEnvironment: { env: host.env, ledger: createMemorySpendLedger() },
      },
    },
    { signal: host.signal, report: () => undefined },
  );
  const dir = outcome.artifactsDir ?? join(artifactsRoot, data.runId);
  const [result, report] = await Promise.all([
    readFile(join(dir, 'result.json'), 'utf8')
      .then((text) => JSON.parse(text) as RunResult)
      .catch(() => null),
    readFile(join(dir, 'report.md'), 'utf8').catch(() => null),
  ]);
  return { data, outcome, result, report };
}
