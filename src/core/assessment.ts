// The assessment (docs/design.md §3.3): after the judge holds, what else the patch changed outside the
// failing tests, and the level the publication shows. `verified` only when fixloop looked and found
// nothing a reviewer should see; otherwise `review` (the status stays `tests_green`: the tests do
// pass), with each change as an input and the values before and after.

export type AssessmentLevel = 'verified' | 'review';

/** One place where the patched program behaves differently from the original. */
export interface BehaviourChange {
  /** `suite`: a call the test suite made; `generated`: an input generated around one it made. */
  kind: 'suite' | 'generated';
  /** The changed function, as its file names it (`isAbsolute`, `Parser.parse`). */
  function: string;
  /** Where it is defined in the patched file: `src/path.ts:12`. */
  location: string;
  /** The call, as code: `isAbsolute('ab\\c')`. */
  input: string;
  /** What it returned or threw before and after the patch: `false`, `throws TypeError: x is not a function`. */
  before: string;
  after: string;
  /** Suite calls: the test (pytest's id) or the test file and line that made the call. */
  test?: string;
  /**
   * The failing tests' own inputs, or inputs generated around them: where a change is expected.
   * Listed apart, and they do not make the level `review`.
   */
  nearFailing: boolean;
  /**
   * Generated inputs: whose path the original program took on this input, the failing tests' or
   * the passing tests' (set only when the paths tell them apart). `passing` keeps the change out of
   * `nearFailing`: the tests say the old result on that path was right.
   */
  pathLike?: 'failing' | 'passing';
  /**
   * How many of the changes the assessment found do the same thing to this function (the same part
   * of the value differs the same way), when it kept only some of them: the report's count.
   */
  alike?: number;
}

/** Another plausible patch the engine (or the assessment) found, and where it disagrees with the one chosen. */
export interface AlternativePatch {
  /** The files it changes and a one-line summary (`src/a.js: a && b → a || b`). */
  summary: string;
  /** Why the chosen patch was preferred, when it was (`weakens the check that throws on …`, `2 more behaviour changes`). */
  passedOver?: string;
  /**
   * `assessment`: not the engine's, fixloop's own: a one-edit patch at a line the chosen patch changed
   * that passes the tests too, looked for when the engine offered no other plausible patch.
   */
  foundBy?: 'assessment';
  /**
   * Inputs on which it and the chosen patch give different results: the tests do not decide between
   * them. `atFailingTests`: a failing test's own call, whose test accepts both results.
   */
  disagreements: Array<{ input: string; chosen: string; alternative: string; atFailingTests?: true }>;
}

/**
 * A call whose patched result depends on being under the test runner: the original gives one result
 * under it and outside it, the patched program another under it than outside (outside-look.ts).
 */
export interface RunnerOnlyCall {
  /** As in BehaviourChange. */
  function: string;
  location: string;
  input: string;
  test?: string;
  /** The original's result, the same under the runner and outside it. */
  original: string;
  /** The patched program's result under the runner, where the tests pass. */
  underRunner: string;
  /** The patched program's result in a plain process, with no runner. */
  outside: string;
  /** The file the plain process called it in, when that was the copy the package's build ships (not `location`'s). */
  built?: string;
}

/** The look from outside the runner: the suite calls the patch changed, made again in a plain process. */
export interface OutsideLook {
  /** Calls made again there (their arguments exact data, their function found by its name). */
  called: number;
  /** Of those, calls on which the original gave the same result under the runner and outside it: the ones that count. */
  reproduced: number;
  /** The calls where the patch acts only under the runner (at most a few; `count` has them all). */
  runnerOnly: RunnerOnlyCall[];
  count: number;
  /**
   * The changed calls no plain process could make, by why: a method's on an object whose fields are
   * not all exact data (the plain process rebuilds the receiver from them), arguments
   * that are not exact data (an object of a class, a function, a symbol), a language with no
   * plain process, a function the patch did not change whose result may rest on what the test set up
   * before the call (`state`). Absent: every changed call could be made.
   */
  notCalled?: { methods: number; inexactArguments: number; unsupported: number; state?: number };
  /**
   * The calls made outside the runner a second time with the settings their language's programs are
   * deployed with (`NODE_ENV=production`), on which the patch's fix is off: the patched program gives
   * there what the original gives, and the original what it gave under the runner (each call's
   * `outside` is its result there). Absent: no call was made with such settings.
   */
  offWhereDeployed?: { settings: string; called: number; calls: RunnerOnlyCall[]; count: number };
  /**
   * A published package's files that hold a copy of a function the patch changed in the sources (a
   * build under `dist/`, a copy for another module format) and that the patch left as they were:
   * users load the copy (src/assess/stale-builds.ts).
   */
  staleBuilds?: StaleBuild[];
}

/** A changed function's copy in a shipped file that the patch left as it was. */
export interface StaleBuild {
  /** The changed function, as the probes name it. */
  function: string;
  /** Its file, which the patch changed. */
  changed: string;
  /** The shipped file that holds the copy. */
  shipped: string;
}

/** A patch that changes behaviour only at the failing tests' own inputs (src/assess/special-case.ts). */
export interface SpecialCase {
  /** The failing tests' calls whose result changed, as code: `grade(73)`. */
  inputs: string[];
  /** Inputs generated around them, compared in both versions, none of whose results changed. */
  neighbours: number;
  /** The arguments whose literal the change follows, as `argument 2 = 'X(hi)X'`, when neighbours keeping it changed too. */
  keyedOn?: string[];
  /**
   * The one result every neighbour counted gave, in both versions, when they all gave one: they may
   * not reach what the patch changed (a lookup by day that finds no row for any other day), so the
   * report says so rather than let the count stand alone.
   */
  oneResult?: string;
  /**
   * Generated inputs both versions took as a failing call itself (another case or spacing the
   * function normalizes), which changed with it: not counted as neighbours.
   */
  sameInput?: number;
  /** Generated inputs that changed at a value the patch's own lines name (another key of its table): not counted. */
  namedInputs?: number;
}

export interface Assessment {
  level: AssessmentLevel;
  /** One sentence: why this level (`no behaviour change outside the failing tests in 412 calls and 1,630 generated inputs`). */
  reason: string;
  /** Changes found, the ones outside the failing tests first; capped for the report (see `counts`). */
  behaviourChanges: BehaviourChange[];
  alternatives: AlternativePatch[];
  /** The functions probed, as `location name`. */
  probed: string[];
  /**
   * Calls of the suite and generated inputs compared; every change found (`changes`), of which
   * `nearFailing` near the failing tests; `unstable`: calls and inputs left out because their results
   * varied between two runs of the same version beyond what masking the varying parts covers.
   */
  counts: { suiteCalls: number; generatedInputs: number; changes: number; nearFailing: number; unstable?: number };
  /**
   * Set when the suite reached no function the patch changed (a table or a constant read elsewhere),
   * those it reached showed no change, or no input could be generated around their calls, so the
   * functions the failing tests call were probed too: `probed` names them.
   */
  atEntryPoints?: true;
  /**
   * Set when the engine offered no other plausible patch and the assessment looked for rivals itself:
   * the one-edit patches at the lines the patch changed, how many of them ran on the failing tests
   * within the time, and how many passed them (those that passed the whole suite too are in
   * `alternatives`, `foundBy: 'assessment'`). `stopped`: why it tried fewer than all: its share of
   * the time ran out, one it found gives other results than the patch (so the tests do not decide),
   * or a run failed. `screened`: how many were set aside unrun, their results outside the runner the
   * original's on every call the patch changed (src/assess/rival-screen.ts).
   */
  rivalSearch?: {
    candidates: number;
    tried: number;
    screened?: number;
    passedFailing: number;
    stopped?: 'time' | 'enough' | 'error';
  };
  /**
   * Set when the patch changes behaviour at the failing tests' own calls and at none of the inputs
   * generated around them (and no boundary moved there), or at none of those that give one of their
   * arguments another value (`keyedOn`: the change follows that argument's literal): it answers the
   * tests, not the bug. The level is then `review`.
   */
  specialCase?: SpecialCase;
  /**
   * Set when the look from outside the runner made calls: a patch that gives another result there
   * than under the runner (`runnerOnly`), where the original gives the same in both, is `review`.
   */
  outsideLook?: OutsideLook;
  /** Set when the analysis could not look (no changed function it can probe, a runner that failed, no budget): the level is then `review`. */
  notAssessed?: string;
  budget: { usedMs: number; limitMs: number; exhausted: boolean };
}
