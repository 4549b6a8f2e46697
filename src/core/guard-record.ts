// What the runtime guard inside a judged test process records (docs/design.md §3.2.7). Each runner's
// guard (loaded before the repository's code, from outside the checkout) writes one record per
// process; the judge reads them after the command ends. A process that should have written one and
// did not, or whose record is not `complete`, is missing evidence; every event is a finding.

/** What the guard saw the code under test do. */
export type GuardEventKind =
  /** Ended its own process or rewrote its exit status (`process.exit`, `os._exit`, `os.exec*`, a signal to itself). */
  | 'exit'
  /** Replaced or changed a callable of the test runner or the assertion library (identity changed, export written). */
  | 'framework_changed'
  /** Read a test file from code that is not a test. */
  | 'test_file_read'
  /** Ran code from a string or a file that is not code (`exec`, `compile`, `runpy`, `require` of a data file). */
  | 'dynamic_code'
  /** Wrote the runner's machine report, or a file in the guard's own folder. */
  | 'report_written';

export interface GuardEvent {
  kind: GuardEventKind;
  /** The repository file (relative to the checkout) whose code did it, when the guard could tell. */
  file: string | null;
  line: number | null;
  /** What was touched, in words: `_pytest.python.Function.runtest replaced`, `process.exit(0)`. */
  detail: string;
}

export interface GuardRecord {
  /** The runner the guard belongs to (a `TestRunner.id`). */
  runner: string;
  pid: number;
  /** The guard saw the runner finish normally (its session end): false when the process ended early. */
  complete: boolean;
  /** The tests the guard itself saw end, by outcome: checked against the runner's reports. */
  tests: { passed: number; failed: number; skipped: number } | null;
  events: GuardEvent[];
}
