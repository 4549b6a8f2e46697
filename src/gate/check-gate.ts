// The gate of a check run (docs/design.md §1.5): the checks are the target, the suite guards. It
// passes when every check exits 0 and every test that did not fail at the baseline still passes (the
// suite need not be green if it was not). Its report is what the loop and the engines read of any
// gate: the failing items, here each check's diagnostics (file, line, rule, message) and the suite's
// regressions, as failing tests; the suite's other tests as they are. Progress is then counted per
// diagnostic, as per test for a suite.
import { diagnosticPlace, diagnosticText, type CheckRun, type Diagnostic } from '../core/check-result.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { TestCaseResult, TestReport } from '../core/test-report.ts';

/** The failing item of a diagnostic: its place in the stack, so localization and the agents find the line. */
export function diagnosticTest(d: Diagnostic): TestCaseResult {
  const place = diagnosticPlace(d);
  return {
    id: `${d.tool}: ${place ? `${place} ` : ''}${d.rule ?? d.message}`,
    name: d.rule ?? d.message,
    ...(d.file ? { file: d.file } : {}),
    status: 'failed',
    message: diagnosticText(d),
    ...(d.file && d.line !== undefined ? { stack: `    at ${d.file}:${d.line}:${d.column ?? 1}` } : {}),
  };
}

/** A failing check whose output names no diagnostic: one failing item, the end of its output its message. */
function unreadCheck(run: CheckRun): TestCaseResult {
  const tail = run.output.trimEnd().split('\n').slice(-20).join('\n');
  const ending = run.timedOut ? 'timed out' : `exit ${run.exitCode ?? 'killed'}`;
  return { id: `check: ${run.command}`, name: run.command, status: 'failed', message: `${ending}\n${tail}` };
}

/**
 * The suite's tests that fail now and did not at the baseline; one item for a suite that fails now
 * where it passed, or that runs fewer passing tests than at the baseline, without naming a new failure.
 */
export function suiteRegressions(suite: GateResult, baseline: GateResult, command: string): TestCaseResult[] {
  if (suite.passed) return [];
  const before = baseline.report;
  const failedBefore = new Set(before.tests.filter((t) => t.status === 'failed').map((t) => t.id));
  const failing = suite.report.tests.filter((t) => t.status === 'failed' && !failedBefore.has(t.id));
  const item = (why: string): TestCaseResult[] => [
    {
      id: `tests: ${command}`,
      name: command,
      status: 'failed',
      message: `${why}\n${suite.output.trimEnd().split('\n').slice(-20).join('\n')}`,
    },
  ];
  if (failing.length > 0 && (baseline.passed || before.parsed)) return failing;
  if (baseline.passed) return item('the tests passed at the baseline and fail now');
  // A suite red at the baseline and unread there: which tests regressed cannot be told (the judge refuses it).
  if (!before.parsed) return [];
  if (!suite.report.parsed || suite.report.passed < before.passed)
    return item(`fewer tests pass than at the baseline (${before.passed})`);
  return [];
}

export interface CheckGateInput {
  checks: CheckRun[];
  suite: GateResult;
  /** The suite at the baseline: what it may still fail. */
  baseline: GateResult;
  suiteCommand: string;
}

export function checkGate({ checks, suite, baseline, suiteCommand }: CheckGateInput): GateResult {
  const targets = checks.flatMap((run) =>
    run.passed ? [] : run.diagnostics.length > 0 ? run.diagnostics.map(diagnosticTest) : [unreadCheck(run)],
  );
  const regressions = suiteRegressions(suite, baseline, suiteCommand);
  const failing = [...targets, ...regressions];
  const others = suite.report.tests.filter((t) => t.status !== 'failed');
  const report: TestReport = {
    format: 'checks',
    parsed: true,
    passed: suite.report.passed,
    failed: failing.length,
    skipped: suite.report.skipped,
    total: suite.report.passed + suite.report.skipped + failing.length,
    tests: [...failing, ...others],
  };
  const output = [
    ...checks.filter((run) => !run.passed).map((run) => `==== check: ${run.command} ====\n${run.output}`),
    `==== tests: ${suiteCommand} ====\n${suite.output}`,
  ].join('\n');
  const common = { report, output, durationMs: suite.durationMs + checks.reduce((sum, run) => sum + run.durationMs, 0), checks };
  if (failing.length === 0) return { ...common, passed: true };
  const first = checks.find((run) => !run.passed);
  if (!first)
    return suite.passed
      ? { ...common, passed: false, reason: 'NON_ZERO_EXIT' }
      : { ...common, passed: false, reason: suite.reason, ...(suite.exitCode !== undefined ? { exitCode: suite.exitCode } : {}) };
  if (first.timedOut) return { ...common, passed: false, reason: 'TIMEOUT' };
  if (typeof first.exitCode !== 'number') return { ...common, passed: false, reason: 'PROCESS_KILLED' };
  return { ...common, passed: false, reason: 'NON_ZERO_EXIT', exitCode: first.exitCode };
}
