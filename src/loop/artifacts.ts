// The run's artifacts on disk: attempt-<n>.diff, attempt-<n>.log, report.md, result.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { redactSecrets } from '../core/redact.ts';

export interface Artifacts {
  readonly dir: string;
  attemptDiffPath(attempt: number): string;
  attemptLogPath(attempt: number): string;
  writeAttempt(attempt: number, diff: string, log: string): Promise<void>;
  /** A log of its own (e.g. `setup.log`), redacted; returns its path. */
  writeLog(name: string, text: string): Promise<string>;
  writeReport(markdown: string, json: unknown): Promise<{ reportPath: string; resultPath: string }>;
}

export async function createArtifacts(dir: string): Promise<Artifacts> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const attemptDiffPath = (n: number) => join(root, `attempt-${n}.diff`);
  const attemptLogPath = (n: number) => join(root, `attempt-${n}.log`);
  return {
    dir: root,
    attemptDiffPath,
    attemptLogPath,
    async writeAttempt(n, diff, log) {
      await writeFile(attemptDiffPath(n), redactSecrets(diff));
      await writeFile(attemptLogPath(n), redactSecrets(log));
    },
    async writeLog(name, text) {
      const path = join(root, name);
      await writeFile(path, redactSecrets(text));
      return path;
    },
    async writeReport(markdown, json) {
      const reportPath = join(root, 'report.md');
      const resultPath = join(root, 'result.json');
      await writeFile(reportPath, redactSecrets(markdown));
      await writeFile(resultPath, redactSecrets(`${JSON.stringify(json, null, 2)}\n`));
      return { reportPath, resultPath };
    },
  };
}
