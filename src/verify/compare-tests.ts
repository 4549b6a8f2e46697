// Per-test comparison of the baseline and the final run (by test id).
import { viewOf, type TestReport, type TestStatus } from '../core/test-report.ts';

export interface TestComparison {
  failToPass: string[];
  passToFail: string[];
  stillFailing: string[];
  newlySkipped: string[];
  /** Baseline tests the final run does not have at all. */
  removed: string[];
}

/**
 * Runners such as `pytest -q` or vitest list only failing tests. When the final run's output passed
 * with no failures and names some tests but fewer than it counted, a baseline test it does not name
 * is taken as passed. Counts that name no test (the view `counts`) account for none: no test is
 * shown passing by a number.
 */
export function finalStatus(
  final: TestReport,
  id: string,
  byId: ReadonlyMap<string, TestStatus> = new Map(final.tests.map((t) => [t.id, t.status])),
): TestStatus | undefined {
  const status = byId.get(id);
  if (status !== undefined) return status;
  const listsEveryTest = final.tests.length >= final.total;
  if (!listsEveryTest && final.failed === 0 && viewOf(final) === 'output') return 'passed';
  return undefined;
}

export function compareTests(baseline: TestReport, final: TestReport): TestComparison {
  const byId = new Map(final.tests.map((t) => [t.id, t.status]));
  const result: TestComparison = { failToPass: [], passToFail: [], stillFailing: [], newlySkipped: [], removed: [] };
  for (const test of baseline.tests) {
    const after = finalStatus(final, test.id, byId);
    if (after === undefined) {
      if (final.tests.length >= final.total) result.removed.push(test.id);
      continue;
    }
    if (test.status === 'failed' && after === 'passed') result.failToPass.push(test.id);
    else if (test.status === 'passed' && after === 'failed') result.passToFail.push(test.id);
    else if (test.status === 'failed' && after === 'failed') result.stillFailing.push(test.id);
    if (test.status !== 'skipped' && after === 'skipped') result.newlySkipped.push(test.id);
  }
  for (const list of Object.values(result)) list.sort();
  return result;
}
