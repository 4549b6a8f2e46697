// Whether a fixed test passed when run alone (src/verify/passed-alone.ts): by the run's exit and the
// test's own outcome; and, seen from inside the test processes, by that outcome where a run of a few
// tests fails as a whole for what they cannot reach (a coverage threshold), never after a timeout.
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { TestCaseResult, TestReport, TestView } from '../../src/core/test-report.ts';
import { passedAlone } from '../../src/verify/passed-alone.ts';

const test: TestCaseResult = { id: 'math > adds', name: 'adds', status: 'passed' };

function report(view: TestView, tests: TestCaseResult[]): TestReport {
  const failed = tests.filter((t) => t.status === 'failed').length;
  return {
    format: 'node-test',
    parsed: true,
    passed: tests.length - failed,
    failed,
    skipped: 0,
    total: tests.length,
    tests,
    view,
  };
}

const exited = (given: TestReport, exitCode: number): GateResult =>
  exitCode === 0
    ? { report: given, output: '', durationMs: 1, passed: true }
    : { report: given, output: '', durationMs: 1, passed: false, reason: 'NON_ZERO_EXIT', exitCode };

describe('a fixed test run alone', () => {
  it('passed where the run passed and names it passed', () => {
    expect(passedAlone(exited(report('output', [test]), 0), test)).toBe(true);
    expect(passedAlone(exited(report('output', [{ ...test, status: 'failed' }]), 0), test)).toBe(false);
  });

  it('passed where the run failed as a whole but, from inside its processes, no test failed and it passed', () => {
    expect(passedAlone(exited(report('inside', [test]), 1), test)).toBe(true);
  });

  it('failed where the failing run is seen only through its output, a test failed, it did not run, or the run timed out', () => {
    expect(passedAlone(exited(report('output', [test]), 1), test)).toBe(false);
    const other: TestCaseResult = { id: 'math > subtracts', name: 'subtracts', status: 'failed' };
    expect(passedAlone(exited(report('inside', [test, other]), 1), test)).toBe(false);
    expect(passedAlone(exited(report('inside', []), 1), test)).toBe(false);
    const late: GateResult = { report: report('inside', [test]), output: '', durationMs: 1, passed: false, reason: 'TIMEOUT' };
    expect(passedAlone(late, test)).toBe(false);
  });
});
