// Whether a fixed test passed when run alone (src/verify/passed-alone.ts): by the run's exit and the
// test's own outcome; and, seen from inside the test processes, by that outcome where a run of a few
// tests fails as a whole for what they cannot reach (a coverage threshold), never after a timeout.
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { TestCaseResult, TestView } from '../../src/core/test-report.ts';
import { passedAlone } from '../../src/verify/passed-alone.ts';
import { reportOf, type Outcomes } from '../support/report-of.ts';

const test: TestCaseResult = { id: 'adds', name: 'adds', status: 'passed' };

/** A run of `tests`, seen as `view`, that exited with `exitCode` whatever its tests did. */
function exited(tests: Outcomes, view: TestView, exitCode: number): GateResult {
  const report = reportOf(tests, { view });
  return exitCode === 0
    ? { report, output: '', durationMs: 1, passed: true }
    : { report, output: '', durationMs: 1, passed: false, reason: 'NON_ZERO_EXIT', exitCode };
}

describe('a fixed test run alone', () => {
  it('passed where the run passed and names it passed', () => {
    expect(passedAlone(exited([['adds', 'passed']], 'output', 0), test)).toBe(true);
    expect(passedAlone(exited([['adds', 'failed']], 'output', 0), test)).toBe(false);
  });

  it('passed where the run failed as a whole but, from inside its processes, no test failed and it passed', () => {
    expect(passedAlone(exited([['adds', 'passed']], 'inside', 1), test)).toBe(true);
  });

  it('failed where the failing run is seen only through its output, a test failed, it did not run, or the run timed out', () => {
    expect(passedAlone(exited([['adds', 'passed']], 'output', 1), test)).toBe(false);
    expect(
      passedAlone(
        exited(
          [
            ['adds', 'passed'],
            ['subtracts', 'failed'],
          ],
          'inside',
          1,
        ),
        test,
      ),
    ).toBe(false);
    expect(passedAlone(exited([], 'inside', 1), test)).toBe(false);
    const late: GateResult = {
      report: reportOf([['adds', 'passed']], { view: 'inside' }),
      output: '',
      durationMs: 1,
      passed: false,
      reason: 'TIMEOUT',
    };
    expect(passedAlone(late, test)).toBe(false);
  });
});
