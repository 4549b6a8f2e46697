// What the probes write, one JSON object per line, from inside an instrumented test process (the
// JavaScript runtime in js/probe-runtime.cjs, the Python one in python/fixloop_probe.py). Both languages
// write the same shape, so one comparison (compare-records.ts) serves both.
import type { ChangeValues } from './change-values.ts';

/** One call of a probed function, made by the suite or generated around one it made. */
export interface ProbeRecord {
  /** The probed function's id: `<path relative to the repository>#<qualified name>` (`src/url.ts#isAbsolute`, `pkg/mod.py#Parser.parse`). */
  fn: string;
  /**
   * The arguments as code, canonical and deterministic (equal values give equal text in both
   * versions of the program; no addresses, no ids): `'ab\\c', 2`. It is the record's key.
   */
  args: string;
  kind: 'suite' | 'generated';
  /** Generated inputs: the `args` of the suite call they were derived from. */
  base?: string;
  /** What the call returned or threw, as canonical text: `{ returned: "false" }`, `{ threw: "TypeError: x is not a function" }`. */
  out: { returned: string } | { threw: string };
  /** The arguments after the call, spelled out as a returned value is (an object by its fields too), when the call changed them: a mutation is a result too. */
  after?: string;
  /** A JavaScript method's receiver (`this`) after the call, spelled out the same way, when the call changed it (Python's `self` is among the arguments). */
  thisAfter?: string;
  /** Suite calls: who made the call: pytest's current test id, or the first caller outside the probed file (`test/url.test.ts:41`). */
  site?: string;
  /**
   * JavaScript suite calls: the frames of the call's stack in the repository's test files, innermost
   * first (at most four: a helper, the test that called it…). Code between the test and the probed
   * function (a generated bundle) hides the test from `site`; these tell whose call it was.
   */
  testLines?: string[];
  /**
   * The path the call took through the function: the markers of its statements and branches that
   * ran (JavaScript, js/probe-path.ts) or its lines (Python), sorted. Absent where it could not be
   * traced (another tracer was set).
   */
  path?: number[];
  /**
   * Suite calls whose every argument is exact data: the arguments as JSON that gives the same values
   * back, what JSON has no literal for tagged (`undefined`, NaN, a date, bytes, a tuple, a set:
   * js/probe-replay.cjs, python/fixloop_probe_replay.py) (JavaScript's argument list; Python's
   * `[args, kwargs]`, without a method's `self`; in Python, what JSON cannot write is pickled, as one
   * tagged value), for the look from outside the runner (outside-look.ts). Absent: the call cannot be
   * made again there. Opaque here: only the plain process of the program's language reads it.
   */
  replay?: string;
  /**
   * Suite calls of a method on an instance, with `replay`: the instance's own fields before the call,
   * as JSON of exact data (JavaScript's own properties, Python's `vars(self)`), or in Python the
   * instance pickled. The look from outside makes the call on an object of the method's class given
   * those fields, without its constructor, or on the object unpickled.
   */
  replayThis?: string;
}

/** A function the instrumentation wrapped, in one version of a file. */
export interface ProbedFunction {
  /** As in `ProbeRecord.fn`. */
  id: string;
  /** As the file names it: `isAbsolute`, `Parser.parse`. */
  name: string;
  /** The repository-relative path and the line of the function's first line in that version. */
  path: string;
  line: number;
}

/** A file rewritten so that its changed functions record their calls. */
export interface InstrumentedFile {
  source: string;
  functions: ProbedFunction[];
}

/** Where the instrumented code writes: everything it needs is in the source, nothing in the environment. */
export interface ProbeTarget {
  /** Absolute path of the JSON-lines file the records are appended to (inside the checkout, so a sandboxed run can write it). */
  recordFile: string;
  /** The repository-relative path of the file being instrumented, for ids. */
  path: string;
  /**
   * Absolute path of a folder inside the checkout where the caller has put the probe's runtime
   * files (its language's runtimeFiles, probe-language.ts), so that a sandboxed run sees them.
   */
  runtimeDir: string;
  /** The values the patches' changed lines name, that generated inputs are made from (change-values.ts); absent: none. */
  values?: ChangeValues;
}
