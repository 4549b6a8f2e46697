// Per-test results parsed from a test run's output or report file.
import type { GuardRecord } from './guard-record.ts';

export type TestStatus = 'passed' | 'failed' | 'skipped';

/**
 * Where a report's results were read from: a shared format (`junit`, `tap`), a runner's own output
 * (the id of its descriptor in src/runners/, which core does not know), or `unknown`.
 */
export type TestReportFormat = string;

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
   * command's runner has no guard; absent when the run did not load one (not a judged run).
   */
  guard?: GuardObservation | null;
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
