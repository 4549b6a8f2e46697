// The gate (docs/design.md §1.5): runs the test command; exit code 0 passes, anything else fails.
// The runner's test processes load fixloop's runtime guard in every run, whose records name each test
// from inside them; the output (or a JUnit XML report file) is parsed too, and the per-test view is
// taken from the records where they name the tests, else from the output (per-test-view.ts). The
// full suite's runs also ask the runner for its own machine report, kept as the report's `witness`.
import { readFile, rm } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import { CodedError } from '../core/coded-error.ts';
import type { CommandResult, Mount, Sandbox } from '../sandbox/sandbox.ts';
import type { GateResult } from '../core/gate-result.ts';
import { parseTestOutput } from './parse-test-output.ts';
import { parseJunit } from '../formats/junit.ts';
import { requestMachineReport, type MachineReportRequest } from './machine-report.ts';
import { noRuntimeGuard, requestRuntimeGuard, type RuntimeGuardRequest } from './runtime-guard.ts';
import { perTestView } from './per-test-view.ts';
import { checkoutNeutral } from './checkout-neutral.ts';
import { warmRunnerToolchain } from './toolchain-warm-up.ts';
import type { TestReport } from '../core/test-report.ts';

export interface GateOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  env?: Record<string, string>;
  /** JUnit XML file the command writes, relative to cwd. */
  reportFile?: string;
  /** Ask the runner for its own machine report too (the report's `witness`): the full suite's runs. */
  witness?: boolean;
  /**
   * A judged run (the baseline, the replay, the second observation): the runtime guard of the
   * command's runner, which every run loads, is told the baseline's test files (none otherwise) and,
   * in the replay and its second observation, which configuration and setup files are the runner's.
   */
  guard?: JudgedFiles;
  /** No runtime guard at all: only to measure what it costs (bench/guard-overhead.ts), never in a run. */
  withoutGuard?: boolean;
  /** Folders outside cwd the command must see (read-only unless marked): a fork's linked dependencies. */
  mounts?: Mount[];
  /** A /tmp kept between runs (RunCommandOptions.tmpDir): the repair engine's candidate runs in one fork. */
  tmpDir?: string;
  signal?: AbortSignal;
  onOutput?: (chunk: string) => void;
}

/** What a judged run's guard is told (GuardContext's `testFiles` and `exemptFiles`). */
export interface JudgedFiles {
  testFiles: readonly string[];
  exemptFiles?: readonly string[];
}

export class GateError extends CodedError<'REPORT_PATH_REFUSED'> {}

function reportPath(cwd: string, file: string): string {
  const relative = normalize(file);
  if (isAbsolute(file) || relative.startsWith('..'))
    throw new GateError('REPORT_PATH_REFUSED', `test.report must be a path inside the repository (got \`${file}\`)`);
  return join(cwd, relative);
}

export async function runGate(sandbox: Sandbox, options: GateOptions): Promise<GateResult> {
  const reportFile = options.reportFile ? reportPath(options.cwd, options.reportFile) : null;
  // A stale report from an earlier run must never be read as this run's result.
  if (reportFile) await rm(reportFile, { force: true });
  // An operator's own report file is the runner's report already: no second one is asked.
  const machine: MachineReportRequest | null =
    options.witness && !reportFile
      ? await requestMachineReport({ command: options.command, cwd: options.cwd, env: options.env ?? {} })
      : null;
  let guard: RuntimeGuardRequest | null = null;
  try {
    const command = machine?.command ?? options.command;
    const env = { ...options.env, ...machine?.env };
    await warmRunnerToolchain(sandbox, options.command, options.cwd, options.signal);
    // Every run, not only the judged ones: a quiet reporter must not leave the loop or the engines blind.
    guard = options.withoutGuard
      ? noRuntimeGuard(command)
      : await requestRuntimeGuard({
          command,
          cwd: options.cwd,
          env,
          testFiles: options.guard?.testFiles ?? [],
          ...(options.guard?.exemptFiles ? { exemptFiles: options.guard.exemptFiles } : {}),
        });
    const result = await sandbox.run({
      command: guard.command,
      cwd: options.cwd,
      timeoutMs: options.timeoutMs,
      env: { ...env, ...guard.env },
      mounts: [...(options.mounts ?? []), ...(machine?.mounts ?? []), ...guard.mounts],
      ...(options.tmpDir ? { tmpDir: options.tmpDir } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onOutput ? { onOutput: options.onOutput } : {}),
    });
    let report: TestReport | null = null;
    if (reportFile) {
      const xml = await readFile(reportFile, 'utf8').catch(() => null);
      report = xml ? parseJunit(xml) : null;
    }
    report ??= parseTestOutput(result.output);
    if (machine) report.witness = await machine.read();
    report.guard = await guard.read();
    return gateResult(result, checkoutNeutral(perTestView(report, guard.testCase), options.cwd));
  } finally {
    await machine?.dispose();
    await guard?.dispose();
  }
}

function gateResult(result: CommandResult, report: TestReport): GateResult {
  const common = { report, output: result.output, durationMs: result.durationMs };
  if (result.timedOut) return { ...common, passed: false, reason: 'TIMEOUT' };
  if (result.exitCode === null) return { ...common, passed: false, reason: 'PROCESS_KILLED' };
  if (result.exitCode !== 0) return { ...common, passed: false, reason: 'NON_ZERO_EXIT', exitCode: result.exitCode };
  return { ...common, passed: true };
}
