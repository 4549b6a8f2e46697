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
  | 'report_written'
  /** Called the runtime's internal bindings (`process.binding`), below every function the guard watches. */
  | 'internal_binding'
  /** Installed a module-loader or import hook, which is handed every module's source (`module.register`, `require.extensions`, `sys.meta_path`). */
  | 'loader_hook'
  /** Loaded the C library, or looked up a file function in it, through an FFI (`ctypes`). */
  | 'native_library'
  /** Started a child process with an environment that drops the guard (NODE_OPTIONS, PYTEST_ADDOPTS, PYTHONPATH). */
  | 'child_unguarded'
  /**
   * Looked for the test runner: read a variable a runner sets (by any name it was made from), listed an
   * environment that holds one, or read what a process started with (`/proc/self/environ`).
   */
  | 'runner_detected';

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
  /**
   * Each test the guard saw end, with its identity and outcome as the runner itself handed them to its
   * own reporters, whatever reporter or quiet flag the project chose (docs/design.md §3.2.1). Absent
   * when this guard names no tests (then the view is counts only).
   */
  cases?: GuardTestCase[];
}

/** One test as the runner's own events gave it to the guard, inside the process. */
export interface GuardTestCase {
  /** The test file as the runner names it, relative to the checkout when under it; null when the runner does not say. */
  file: string | null;
  /**
   * Its titles, the outermost suite first and the test's own last: mocha's, jest's, vitest's and
   * node's suite and test names; pytest's node id after the file (`Class`, `test_x[param]`), a
   * subtest's own description appended as one more title.
   */
  titles: string[];
  outcome: 'passed' | 'failed' | 'skipped';
  /** A failed test's error, its first lines (capped). */
  message?: string;
  /** A failed test's stack or traceback (capped). */
  stack?: string;
  /**
   * What the test's body did, as the guard's own wrapper of the test function saw it, before any
   * reporter, plugin, stream or hook (docs/design.md §3.2.7): `returned`, `raised`, or `unseen` (the
   * wrapper never saw it end: bypassed, replaced, or never called). Absent where the guard does not wrap
   * this runner's tests (mocha loaded by no `require`), for a skipped test, and for what is no test body
   * (a hook's or a collection's error, a subtest).
   */
  body?: TestBody;
  /** What the body raised, when it raised: the error's type and message (capped). */
  raised?: string;
}

export type TestBody = 'returned' | 'raised' | 'unseen';
