// A run of the App as the CLI finds it again: its job in the run store and its result on disk.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runJobData, type RunJobData } from '../forge/run-job-data.ts';
import type { RunStore, StoredJob } from '../jobs/run-store.ts';
import { openSqliteStore } from '../jobs/sqlite-store.ts';
import type { RunResult } from '../core/run-result.ts';
import { renderMarkdownReport } from '../report/render-markdown.ts';
import { commandLineRun } from './command-line-runs.ts';
import { appDataDir, userDataDir } from '../core/data-dir.ts';
import { UsageError } from './usage-error.ts';

export interface StoredRun {
  store: RunStore;
  job: StoredJob;
  /** The run's plan, config and installation, as its trigger stored them. */
  data: RunJobData;
  result: RunResult;
}

/** The App's data folder: FIXLOOP_DATA_DIR, else `.fixloop` where `fixloop serve` started (src/core/data-dir.ts). */
export function dataDirFrom(env: NodeJS.ProcessEnv, explicit?: string): string {
  return explicit ? resolve(explicit) : appDataDir(env);
}

/**
 * The App's run store as the command line opens it: the one in `dataDir` when FIXLOOP_DATA_DIR names
 * it or a `fixloop serve` keeps one there; else an empty one in memory, so that reading the runs
 * never leaves a `.fixloop` folder in the repository it is read from.
 */
export function openAppStore(dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<RunStore> {
  return openSqliteStore(env.FIXLOOP_DATA_DIR || existsSync(join(dataDir, 'fixloop.db')) ? dataDir : null);
}

/** Opens the store and reads the run's result; the caller closes `store`. */
export async function openStoredRun(dataDir: string, runId: string): Promise<StoredRun> {
  const store = await openAppStore(dataDir);
  try {
    const job = await store.get(runId);
    if (!job) {
      // A command-line run has its result and patch but no stored request to replay or publish from.
      const local = await commandLineRun(userDataDir(process.env), runId);
      if (local)
        throw new UsageError(
          `run \`${runId}\` is a command-line run: replay and publish work on the App's stored runs; its report and patch are in ${local.dir} (\`fixloop runs show ${runId}\`), and \`fixloop run\` runs it again`,
        );
      throw new UsageError(`no run \`${runId}\` in ${dataDir} (see \`fixloop runs\`)`);
    }
    if (!job.artifactsDir) throw new UsageError(`run \`${runId}\` has no result yet (${job.state})`);
    const text = await readFile(join(job.artifactsDir, 'result.json'), 'utf8').catch(() => null);
    if (text === null)
      throw new UsageError(`run \`${runId}\`: its result file ${join(job.artifactsDir, 'result.json')} is missing`);
    return { store, job, data: runJobData(job), result: JSON.parse(text) as RunResult };
  } catch (error) {
    await store.close();
    throw error;
  }
}

export function verifiedPatchOf(run: StoredRun): string {
  if (run.result.status !== 'tests_green' || !run.result.patch.trim()) {
    throw new UsageError(`run \`${run.job.runId}\` has no verified patch (its status is ${run.result.status})`);
  }
  return run.result.patch;
}

/**
 * The run's Markdown report as the run rendered it (report.md beside result.json); rendered from the
 * result only when that file is gone, so a verified patch can always be published again.
 */
export async function storedReport(run: StoredRun): Promise<string> {
  const dir = run.job.artifactsDir;
  const text = dir ? await readFile(join(dir, 'report.md'), 'utf8').catch(() => null) : null;
  return text ?? renderMarkdownReport(run.result);
}
