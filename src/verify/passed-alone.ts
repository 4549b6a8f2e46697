// Whether a test passed in a run of the fixed tests alone (the second observation, its copies).
import type { TestCaseResult, TestReport } from '../core/test-report.ts';

/**
 * The test passed on its own: the run passed and, where its view names tests (from inside its
 * processes, or its output), names the test passed, or (an output such as `pytest -q`'s lists only
 * failures) ran tests of which none failed.
 */
export function passedAlone(passed: boolean, report: TestReport, test: TestCaseResult): boolean {
  if (!passed) return false;
  if (!report.parsed) return true;
  const seen = report.tests.find((t) => t.id === test.id || t.name === test.name);
  return seen ? seen.status === 'passed' : report.failed === 0 && report.passed > 0;
}
