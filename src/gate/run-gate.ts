// The gate (DESIGN.md §1.5): runs the test command; exit code 0 passes, anything else fails.
// The output (or a JUnit XML report file) is parsed into per-test results for the loop.
import { readFile, rm } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import { CodedError } from '../core/coded-error.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { GateResult } from '../core/gate-result.ts';
import { parseTestOutput } from './parse-test-output.ts';
import { parseJunit } from './parsers/junit.ts';
import type { TestReport } from '../core/test-report.ts';

export interface GateOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  env?: Record<string, string>;
  /** JUnit XML file the command writes, relative to cwd. */
  reportFile?: string;
  signal?: AbortSignal;
  onOutput?: (chunk: string) => void;
}

export class GateError extends CodedError<'REPORT_PATH_REFUSED'> {}

function reportPath(cwd: string, file: string): string {
  const relative = normalize(file);
  if (isAbsolute(file) || relative.startsWith('..')) throw new GateError('REPORT_PATH_REFUSED', `test.report must be a path inside the repository (got \`${file}\`)`);
  return join(cwd, relative);
}

export async function runGate(sandbox: Sandbox, options: GateOptions): Promise<GateResult> {
  const reportFile = options.reportFile ? reportPath(options.cwd, options.reportFile) : null;
  // A stale report from an earlier run must never be read as this run's result.
  if (reportFile) await rm(reportFile, { force: true });
  const result = await sandbox.run({
    command: options.command,
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    ...(options.env ? { env: options.env } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onOutput ? { onOutput: options.onOutput } : {}),
  });
  let report: TestReport | null = null;
  if (reportFile) {
    const xml = await readFile(reportFile, 'utf8').catch(() => null);
    report = xml ? parseJunit(xml) : null;
  }
  report ??= parseTestOutput(result.output);
  const common = { report, output: result.output, durationMs: result.durationMs };
  if (result.timedOut) return { ...common, passed: false, reason: 'TIMEOUT' };
  if (result.exitCode === null) return { ...common, passed: false, reason: 'PROCESS_KILLED' };
  if (result.exitCode !== 0) return { ...common, passed: false, reason: 'NON_ZERO_EXIT', exitCode: result.exitCode };
  return { ...common, passed: true };
}
