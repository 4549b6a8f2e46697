// The rivals of a patch whose engine offered no other plausible patch, from the search to the
// comparison (docs/design.md §3.3): looked for only when nothing else keeps the patch from `verified`
// (a patch already at `review` has what to review, and the search costs a run per candidate). The
// checkout is written back to the original first (the probed runs left their versions in it); each
// rival that passes the failing tests alone runs the whole suite probed, as the engine's
// alternatives do, and is compared only when that run passes too (else it is not plausible). The
// search goes on, a few rivals at a time, while those found agree with the patch and time is left.
import type { Assessment } from '../core/assessment.ts';
import type { TestCaseResult } from '../core/test-report.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { isAmbiguity, type CandidateInfo, type LevelInput } from './assessment-level.ts';
import { disagreementsWith, type NearFailing, type RecordIndex } from './compare-records.ts';
import type { Noise } from './same-version-noise.ts';
import type { PatchedVersion } from './patched-versions.ts';
import { runWithin, type ProbeCheckout } from './probe-checkout.ts';
import type { ProbedFunction, ProbeRecord } from './probe-record.ts';
import type { Looked } from './look-at-versions.ts';
import type { VersionPlan } from './probe-plan.ts';
import { oneEditRivals } from './one-edit-rivals.ts';
import type { RivalScreen } from './rival-screen.ts';
import { writeTexts } from './checkout-texts.ts';
import {
  startRivalSearch,
  type Rival,
  type RivalSearch,
  type RivalSearcher,
  type RivalsFound,
  type RivalSource,
} from './rival-search.ts';

/** At most this many other plausible patches are compared with the chosen one (each is a suite run). */
export const MAX_ALTERNATIVES = 3;

/** The search may take what is left of the budget but the time of this many probed suite runs (the rivals it finds run the suite), or half of it when that is more. */
const RESERVED_SUITE_RUNS = 2;

export interface RivalComparison {
  checkout: ProbeCheckout;
  /** The original text of every file a version changes (the tests as the patch has them). */
  originals: ReadonlyMap<string, string | null>;
  /** The original text of every file the probed runs wrote (the functions the failing tests call too). */
  written: ReadonlyMap<string, string | null>;
  /**
   * A second checkout of the original, set up (null: none), for candidates to run beside the first's
   * (rival-search.ts): the files in `written` are written to it as well.
   */
  second?: () => Promise<string | null>;
  /** The search as begun beside the look (early-rivals.ts), its first step under way: it goes on from there. */
  begun?: BegunSearch;
  chosen: PatchedVersion;
  /** The plans of the versions, probed where the chosen patch's run was. */
  plan: (versions: PatchedVersion[]) => Promise<{ original: VersionPlan; versions: VersionPlan[] }>;
  suite: SuiteRunner;
  focused: readonly string[];
  fixed: readonly TestCaseResult[];
  testFiles: readonly string[];
  /** How long the chosen patch's probed suite run took: what each rival's run will take. */
  suiteRunMs: number;
  /** The chosen patch's records, the functions probed and where the failing tests are. */
  looked: { after: RecordIndex; functions: Map<string, ProbedFunction>; near: NearFailing; noise?: Noise };
  /** The noise once the versions ran again (asked when a rival disagrees: the disagreement may be noise alone). */
  settle?: () => Promise<Noise>;
  max: number;
  left: () => number;
  log: (line: string) => void;
  /** Where the rivals come from: the `repair` engine's one-edit candidates unless given (a test's stand-in). */
  source?: RivalSource;
  /** Sets candidates aside before their run where a plain process shows they change nothing the patch changed (rival-screen.ts). */
  screen?: RivalScreen | null;
}

/** What the search may take of what is left: the rivals it finds still have to run the suite. */
export function searchShare(leftMs: number, suiteRunMs: number): number {
  return Math.max(leftMs / 2, leftMs - RESERVED_SUITE_RUNS * suiteRunMs);
}

/** What the comparison is given before the look: all but what only the look decides. */
export type RivalBasis = Omit<RivalComparison, 'begun' | 'second' | 'suiteRunMs' | 'looked' | 'plan' | 'settle' | 'screen'>;

/** The comparison's basis for the assessment's checkout, the files as `original` plans them written back first. */
export function rivalBasis(
  of: { suite: SuiteRunner; fixed: readonly TestCaseResult[]; log: (line: string) => void },
  at: {
    chosen: PatchedVersion;
    originals: ReadonlyMap<string, string | null>;
    checkout: ProbeCheckout;
    testFiles: readonly string[];
    focused: readonly string[];
    left: () => number;
  },
  original: VersionPlan,
): RivalBasis {
  return {
    checkout: at.checkout,
    originals: at.originals,
    written: new Map([...original.files].map(([path, file]) => [path, file.text])),
    chosen: at.chosen,
    suite: of.suite,
    focused: at.focused,
    fixed: of.fixed,
    testFiles: at.testFiles,
    max: MAX_ALTERNATIVES,
    left: at.left,
    log: of.log,
  };
}

/** A search begun before the comparison: its searcher and its first step, under way. */
export interface BegunSearch {
  searcher: RivalSearcher | null;
  first: Promise<RivalsFound>;
}

export async function compareRivals(input: RivalComparison): Promise<{
  compared: NonNullable<LevelInput['alternatives']>;
  search: NonNullable<Assessment['rivalSearch']>;
  exhausted: boolean;
}> {
  const { checkout, left } = input;
  // A search begun beside the look puts the checkout back itself, before it joins (early-rivals.ts).
  if (!input.begun) await writeTexts(checkout.dir, input.written);
  const searchMs = () => searchShare(left(), input.suiteRunMs);
  const until = () => {
    const end = Date.now() + searchMs();
    return () => end;
  };
  const searcher = input.begun ? input.begun.searcher : await startRivalSearch(searchOf(input), searchMs());
  if (input.screen) searcher?.screenWith(input.screen);
  let pending = input.begun?.first;
  const compared: NonNullable<LevelInput['alternatives']> = [];
  let exhausted = false;
  let stopped: RivalsFound['stopped'];
  let passedFailing = 0;
  // Step by step: rivals that agree with the patch (an equivalent edit often passes first) do not
  // end the search, one that gives other results does.
  while (searcher) {
    const step = await (pending ?? searcher.next(input.max, until()));
    pending = undefined;
    stopped = step.stopped;
    passedFailing += step.rivals.length;
    const compares = await compareStep(input, step.rivals);
    compared.push(...compares.compared);
    exhausted ||= compares.exhausted;
    if (stopped !== 'enough') break;
    // Its time went to the rivals' suite runs: say so rather than that enough were found.
    if (exhausted || compares.compared.some((c) => c.disagreements === null)) {
      stopped = 'time';
      break;
    }
    if (compares.compared.some(isAmbiguity)) break;
  }
  await searcher?.close();
  const search = {
    candidates: searcher?.candidates ?? 0,
    tried: searcher?.tried ?? 0,
    ...(searcher?.screened ? { screened: searcher.screened } : {}),
    passedFailing,
    ...(stopped ? { stopped } : {}),
  };
  return { compared, search, exhausted };
}

/** The search of `input`'s checkout, with its second checkout when it has one. */
export function searchOf(
  input: Pick<
    RivalComparison,
    'checkout' | 'originals' | 'written' | 'second' | 'chosen' | 'suite' | 'focused' | 'fixed' | 'testFiles' | 'log' | 'source'
  >,
  dir = input.checkout.dir,
): RivalSearch {
  const { originals } = input;
  return {
    source: input.source ?? oneEditRivals,
    request: {
      dir,
      original: async (path) => (originals.has(path) ? (originals.get(path) ?? null) : null),
      patched: input.chosen,
      fixed: input.fixed,
      testFiles: input.testFiles,
    },
    suite: input.suite,
    focused: input.focused,
    ...(input.second ? { second: { ready: withWritten(input.second, input.written), made: true } } : {}),
    log: input.log,
  };
}

/** The second checkout with the files the probed runs wrote as the first has them (the tests as the patch has them). */
function withWritten(second: () => Promise<string | null>, written: ReadonlyMap<string, string | null>) {
  return async () => {
    const dir = await second();
    if (dir) await writeTexts(dir, written);
    return dir;
  };
}

/** The engine's alternatives, each compared with the chosen patch where its probed run finished (null: it did not). */
export function engineAlternatives(
  others: ReadonlyArray<{ info: CandidateInfo }>,
  runs: ReadonlyArray<{ records: ProbeRecord[] } | null | undefined>,
  looked: Pick<Looked, 'after' | 'functions' | 'near' | 'noise'>,
): NonNullable<LevelInput['alternatives']> {
  return others.map((o, i) => {
    const run = runs[i];
    const { after, functions, near, noise } = looked;
    return { info: o.info, disagreements: run ? disagreementsWith(after, run.records, functions, near, noise) : null };
  });
}

/** Each rival's probed suite run, compared with the patch's when it passes (one that fails another test of the suite is not plausible). */
async function compareStep(
  input: RivalComparison,
  found: Rival[],
): Promise<{ compared: NonNullable<LevelInput['alternatives']>; exhausted: boolean }> {
  // A rival edits a file the patch changes, whose original text is known.
  const rivals = found.filter((r) => [...r.version.files.keys()].every((path) => input.originals.has(path)));
  if (rivals.length === 0) return { compared: [], exhausted: false };
  const plans = await input.plan([input.chosen, ...rivals.map((r) => r.version)]);
  const compared: NonNullable<LevelInput['alternatives']> = [];
  let exhausted = false;
  for (const [i, rival] of rivals.entries()) {
    const plan = plans.versions[i + 1];
    if (!plan) continue;
    const step = await runWithin(input.checkout, plan, rival.version.name, input.left, input.log);
    exhausted ||= step.exhausted;
    if (!step.run) compared.push({ info: rival.info, disagreements: null });
    else if (step.run.gate?.passed) {
      const { after, functions, near } = input.looked;
      let disagreements = disagreementsWith(after, step.run.records, functions, near, input.looked.noise);
      if (disagreements.length > 0 && input.settle) {
        input.looked.noise = await input.settle();
        delete input.settle;
        disagreements = disagreementsWith(after, step.run.records, functions, near, input.looked.noise);
      }
      compared.push({ info: rival.info, disagreements });
    }
  }
  return { compared, exhausted };
}
