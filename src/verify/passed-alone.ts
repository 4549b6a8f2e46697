// Whether a test passed in a run of the fixed tests alone (the second observation, its copies).
import type { GateResult } from '../core/gate-result.ts';
import type { TestCaseResult } from '../core/test-report.ts';

/**
 * The test passed on its own: the run passed and, where its view names tests (from inside its
 * processes, or its output), names the test passed, or (an output such as `pytest -q`'s lists only
 * failures) ran tests of which none failed. A run of a few tests may also end with a failing exit
 * where the whole suite does not, for what a few tests cannot reach (a coverage threshold:
 * `c8 --check-coverage`): where its view is from inside the test processes, which code under test
 * cannot forge, the run still counts when it exited (no timeout, no kill), no test failed, and the
 * test passed.
 */
export function passedAlone(gate: GateResult, test: TestCaseResult): boolean {
  const { report } = gate;
  const seen = report.tests.find((t) => t.id === test.id || t.name === test.name);
  if (!gate.passed)
    return gate.reason === 'NON_ZERO_EXIT' && report.view === 'inside' && report.failed === 0 && seen?.status === 'passed';
  if (!report.parsed) return true;
  return seen ? seen.status === 'passed' : report.failed === 0 && report.passed > 0;
}
