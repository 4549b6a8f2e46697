// Per-test results parsed from a test run's output or report file.
import type { GuardRecord } from './guard-record.ts';

export type TestStatus = 'passed' | 'failed' | 'skipped';

/**
 * Where a report's results were read from: a shared format (`junit`, `tap`), a runner's own output
 * (the id of its descriptor in src/runners/, which core does not know), or `unknown`.
 */
export type TestReportFormat = string;

/** Where a test's id or name held the path of the checkout it ran in (src/gate/checkout-neutral.ts). */
export const CHECKOUT = '<checkout>';

export interface TestCaseResult {
  /** Stable identity used to compare runs: e.g. `tests/test_x.py::test_a`, `src/a.test.ts > suite > name`. */
  id: string;
  /** Human-readable name (the last segment of the id). */
  name: string;
  /** Test file, relative to the repository root, when the runner says it. */
  file?: string;
  status: TestStatus;
  /** Failure message (first lines of the assertion / error), for failed tests. */
  message?: string;
  /** Stack trace or traceback text of the failure, when the runner prints one. */
  stack?: string;
  /**
   * What the failed assertion expected and what it got, as the runner printed them (`2`, `'hello bob'`),
   * read from the runner's own assertion output (src/runners/<runner>/parse-<runner>-values.ts): the
   * terminal and the report show them beside the message, whose first line often says only
   * "Expected values to be strictly equal:". Absent when the failure was no comparison the runner spelled out.
   */
  expected?: string;
  actual?: string;
  durationMs?: number;
}

export interface TestReport {
  format: TestReportFormat;
  /** False when nothing could be parsed: then only the exit code decides, and the counts are 0. */
  parsed: boolean;
  passed: number;
  failed: number;
  skipped: number;
  total: number;
  tests: TestCaseResult[];
  /**
   * The runner's own machine report (its JUnit XML), asked by fixloop beside the output: its counts,
   * a second witness of what ran. Null when it was asked and none was written; absent when not asked.
   */
  witness?: Witness | null;
  /**
   * What fixloop's runtime guard recorded inside the test processes (docs/design.md §3.2.7): null when the
   * command's runner has no guard; absent in a report the gate did not make (a stored or built one).
   * The gate loads it in every run; only the judged runs' records are judged (src/verify/).
   */
  guard?: GuardObservation | null;
  /**
   * Where `tests` and the counts came from (docs/design.md §3.2.1, src/gate/per-test-view.ts). Absent in
   * a report the gate did not make: then it is the output's (`viewOf`).
   */
  view?: TestView;
  /**
   * Where the view is `inside`: what the runner's output and machine report said that it contradicts
   * (and a test two processes ended differently). The judge names those the baseline did not have.
   */
  conflicts?: EvidenceConflict[];
  /**
   * Where the counts are not the output's (the view is `inside`, or `counts` the guard gave): the
   * output's own, which the judge checks against the guard's (src/verify/guard-findings.ts).
   */
  printed?: PrintedCounts;
}

/**
 * Where a report's per-test view came from: `inside` the test processes (the runtime guard's records
 * of each test, from the runner's own events), the runner's `output` (or its JUnit file), `counts`
 * with no test named (the output's or the guard's), or `none` (nothing could be read).
 */
export type TestView = 'inside' | 'output' | 'counts' | 'none';

/** A disagreement between the view from inside the test processes and another witness. */
export interface EvidenceConflict {
  /**
   * What disagrees, as a key the judge compares with the baseline's: a test's id with what each side
   * said (`status:<id>:failed:passed`), `unseen:<id>`, `twice:<id>`, or a witness's counts (`counts:output`, `counts:witness`).
   */
  subject: string;
  /** In words a person can read. */
  message: string;
}

/** The parsed output's own counts. */
export type PrintedCounts = Pick<TestReport, 'format' | 'parsed' | 'passed' | 'failed' | 'skipped' | 'total'>;

/** A report's view; one the gate did not make is the output's, as the gate would have called it. */
export function viewOf(report: TestReport): TestView {
  if (report.view) return report.view;
  if (!report.parsed) return 'none';
  return report.tests.length > 0 ? 'output' : 'counts';
}

/** The records of the runtime guard of the runner a judged command started, one per guarded process. */
export interface GuardObservation {
  runner: string;
  records: GuardRecord[];
}

/** The counts of a runner's machine report. */
export interface Witness {
  /** The runner that wrote it, as its descriptor names its machine report (src/runners/). */
  runner: string;
  passed: number;
  failed: number;
  skipped: number;
  total: number;
}

export function emptyReport(): TestReport {
  return { format: 'unknown', parsed: false, passed: 0, failed: 0, skipped: 0, total: 0, tests: [] };
}
