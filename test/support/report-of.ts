// A test report and a gate built from test outcomes, for the unit tests of what reads them (the flaky
// tests, the judge's evidence, the replay): `[id, status]` pairs, each test named by its id.
import type { GateResult } from '../../src/core/gate-result.ts';
import type { TestCaseResult, TestReport } from '../../src/core/test-report.ts';

export type Outcomes = Array<[string, TestCaseResult['status']]>;

/** Where the tests come from: their file (none: not named), and the report's view and guard. */
export interface ReportShape {
  file?: string;
  view?: TestReport['view'];
  guard?: TestReport['guard'];
}

export function reportOf(tests: Outcomes, shape: ReportShape = {}): TestReport {
  const cases = tests.map(([id, status]) => ({ id, name: id, ...(shape.file ? { file: shape.file } : {}), status }));
  const count = (s: TestCaseResult['status']) => cases.filter((t) => t.status === s).length;
  return {
    format: 'node-test',
    parsed: true,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    total: cases.length,
    tests: cases,
    ...(shape.view ? { view: shape.view } : {}),
    ...(shape.guard !== undefined ? { guard: shape.guard } : {}),
  };
}

/** The gate of those outcomes: failed (exit 1) when a test failed, else passed. */
export function gateOf(tests: Outcomes, shape: ReportShape = {}): GateResult {
  const report = reportOf(tests, shape);
  return report.failed > 0
    ? { passed: false, reason: 'NON_ZERO_EXIT', exitCode: 1, report, output: '', durationMs: 1 }
    : { passed: true, report, output: '', durationMs: 1 };
}
