// A task's files in the caller's artifacts folder: `<taskId>-<attempt>.diff` for each attempt, and
// the run's own artifacts (report.md, result.json, attempt logs, setup.log) in `<taskId>/`. A new run
// of the same task replaces what the last one left, so no diff of an older run passes for this one's.
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../core/run-result.ts';
import { createArtifacts } from '../loop/artifacts.ts';
import { inputError } from './library-error.ts';

export interface TaskArtifacts {
  /** The artifacts folder (the caller's, or a new temp folder). */
  dir: string;
  /** The run's own artifacts folder, `<dir>/<taskId>`. */
  runDir: string;
  /** Copies each attempt's diff to `<dir>/<taskId>-<attempt>.diff`; returns their paths in order. */
  storeDiffs(result: RunResult): Promise<string[]>;
  /** The last attempt's log, or the baseline's test output when no attempt ran ('' when neither exists). */
  lastOutput(result: RunResult): Promise<string>;
}

const diffName = (taskId: string, attempt: number) => `${taskId}-${attempt}.diff`;

export async function openTaskArtifacts(chosen: string | null, taskId: string): Promise<TaskArtifacts> {
  const dir = chosen ?? (await mkdtemp(join(tmpdir(), `fixloop-${taskId}-`)));
  const runDir = join(dir, taskId);
  try {
    await mkdir(dir, { recursive: true });
    const earlier = new RegExp(`^${taskId.replace(/\./g, '\\.')}-[0-9]+\\.diff$`);
    for (const name of await readdir(dir)) if (earlier.test(name)) await rm(join(dir, name), { force: true });
    await rm(runDir, { recursive: true, force: true });
  } catch (error) {
    throw inputError(
      'INVALID_OPTION',
      'artifactsDir',
      `\`artifactsDir\` ${JSON.stringify(dir)} cannot be written: ${(error as Error).message}`,
    );
  }
  return {
    dir,
    runDir,
    async storeDiffs(result) {
      const paths: string[] = [];
      for (const attempt of result.attempts) {
        const path = join(dir, diffName(taskId, attempt.attempt));
        await copyFile(attempt.diffPath, path);
        paths.push(path);
      }
      return paths;
    },
    async lastOutput(result) {
      const last = result.attempts.at(-1);
      // Attempt 0 is the baseline's log, as the loop writes it.
      const path = last ? last.logPath : (await createArtifacts(runDir)).attemptLogPath(0);
      return readFile(path, 'utf8').catch(() => '');
    },
  };
}
