// The run's artifacts on disk: attempt-<n>.diff, attempt-<n>.log, report.md, result.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { redactSecrets } from '../core/redact.ts';
import type { RenderedReport } from '../report/render-report.ts';

export interface Artifacts {
  readonly dir: string;
  attemptDiffPath(attempt: number): string;
  attemptLogPath(attempt: number): string;
  writeAttempt(attempt: number, diff: string, log: string): Promise<void>;
  /** A log of its own (e.g. `setup.log`), redacted; returns its path. */
  writeLog(name: string, text: string): Promise<string>;
  /** The run's report as rendered once: report.md and result.json. */
  writeReport(report: RenderedReport): Promise<{ reportPath: string; resultPath: string }>;
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
    async writeReport(report) {
      const reportPath = join(root, 'report.md');
      const resultPath = join(root, 'result.json');
      // Already redacted when rendered; redacted again, as everything written here is.
      await writeFile(reportPath, redactSecrets(report.markdown));
      await writeFile(resultPath, redactSecrets(report.json));
      return { reportPath, resultPath };
    },
  };
}
