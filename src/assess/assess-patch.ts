// The assessment (docs/design.md §3.3): after the judge holds, where does the patched program behave
// differently from the original outside the failing tests? One pristine checkout, set up once; the
// functions any plausible patch changed are instrumented (probe-checkout.ts) in each version; the suite
// runs (version-runs.ts) on the patched and on the original program, the failing tests alone on the
// original (their calls are where a change is expected; their files selected too where the runner can,
// as the rival search runs them per candidate), then each other plausible patch: the engine's, or, when
// it offered none, rivals the assessment found itself (rival-search.ts). The records are compared
// (look-at-versions.ts, compare-records.ts) and the level decided (assessment-level.ts). It never weakens the judge: it runs
// only on a patch the judge has already held, and can only lower what is shown.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Assessment } from '../core/assessment.ts';
import type { TestCaseResult } from '../core/test-report.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { cloneMirror } from '../workspace/create-workspace.ts';
import type { MirrorSeal } from '../workspace/mirror-seal.ts';
import type { TestFileCheck } from '../verify/harness-tampering.ts';
import { decideLevel, ENTRY_REASONS, type CandidateInfo, type EntryReason, type LevelInput } from './assessment-level.ts';
import { entryLookWhy, secondLookStands } from './entry-look.ts';
import { entryPoints, withEntryPoints } from './entry-points.ts';
import { failingTestSpans, fromFailingTests } from './failing-test-callers.ts';
import { probeable, probedKinds } from './probe-languages.ts';
import { probeCheckout, type ProbeCheckout } from './probe-checkout.ts';
import type { ProbeRecord } from './probe-record.ts';
import { planVersions, type VersionPlan } from './probe-plan.ts';
import type { VersionRuns } from './version-runs.ts';
import { lookWithNoise, runAndLook } from './run-and-look.ts';
import { budgetSpentReason, unreachedReason } from './blind-reasons.ts';
import type { Looked } from './look-at-versions.ts';
import { focusChoices } from '../runners/focused-test-command.ts';
import { repositoryFiles } from '../workspace/repository-files.ts';
import { unfinishedRun } from './unfinished-run.ts';
import { alternativeVersions, applyInMemory, type PatchedVersion } from './patched-versions.ts';
import { compareRivals, engineAlternatives, MAX_ALTERNATIVES, rivalBasis, searchShare } from './assess-rivals.ts';
import type { EarlySearch } from './early-rivals.ts';
import { rivalCheckouts } from './later-second.ts';
import { packageScripts } from '../runners/package-scripts.ts';
import { directLaunchOf } from '../runners/direct-launch.ts';
import { withoutCheckSteps, withWholeRunsOf } from './probed-command.ts';
import { valuesOfVersions } from './change-values.ts';
import { SECOND_SETUP_MS } from './second-checkout.ts';
import { lookFromOutside, madeAloneIn } from './outside-look.ts';
import { sameUnder } from './noise-alike.ts';
import { rivalScreen } from './rival-screen.ts';

export interface AssessInput {
  mirror: string;
  seal?: MirrorSeal;
  baseSha: string;
  /** The patch the judge held. */
  patch: string;
  /** What the engine said of it (a check it weakens). */
  chosen?: { summary: string; weakens?: string };
  /** Other plausible patches the engine found, against the same base. */
  alternatives: CandidateInfo[];
  /**
   * Look for rivals when the engine found no alternative: the `repair` engine's one-edit candidates at
   * the patch's lines (one-edit-rivals.ts, rival-search.ts); absent: none looked for.
   */
  searchRivals?: boolean;
  /** The tests the patch fixed, as the baseline reported them. */
  fixed: TestCaseResult[];
  /** The patch is meant to change no behaviour (a check run's): LevelInput.behaviourUnchanged. */
  behaviourUnchanged?: boolean;
  isTestFile: TestFileCheck;
  suite: SuiteRunner;
  scratchDir: string;
  /** The comparison's time, counted from when its checkout is set up (the setup is the repository's own cost, bounded by its timeout). */
  limitMs: number;
  /** How long the suite took at the baseline: the search for rivals begins beside the look only when the look is long (early-rivals.ts). */
  suiteMs?: number;
  /** The run's own deadline (epoch ms): nothing runs past it, whatever `limitMs` leaves. */
  deadline?: number;
  log: (line: string) => void;
}

export async function assessPatch(input: AssessInput): Promise<Assessment> {
  const started = Date.now();
  let clock = started;
  const left = () => Math.min(clock + input.limitMs, input.deadline ?? Infinity) - Date.now();
  const dir = join(input.scratchDir, `assess-${started.toString(36)}`);
  // The limit as it stood: the comparison's, plus the setup that came before its clock started.
  const used = (exhausted: boolean) => ({ usedMs: Date.now() - started, limitMs: input.limitMs + (clock - started), exhausted });
  const notAssessed = (why: string, exhausted = false): Assessment =>
    decideLevel({ notAssessed: why, budget: used(exhausted), ...(input.chosen ? { chosen: input.chosen } : {}) });
  let early: EarlySearch | null = null;
  try {
    await cloneMirror(input.mirror, input.baseSha, dir, input.seal);
    const prepared = await prepareVersions(input, dir);
    if (typeof prepared === 'string') return notAssessed(prepared);
    // The budget is for the comparison: a slow setup must not leave a quick suite no time to run on both versions.
    clock = Date.now();
    const { chosen, others, probed, paths, originals, testFiles, checkout, focused, plans, fromFailing } = prepared;
    const searchAt = { chosen, originals, checkout, testFiles, focused, left };
    const checkouts = await rivalCheckouts(input, prepared, { dir, left, quick: clock - started <= SECOND_SETUP_MS });
    early = checkouts.early;
    const first: Look = { ...(await runAndLook(checkout, plans, { input, focused, left, fromFailing })), plans };
    const entryLook = { checkout, dir, input, focused, left, fromFailing, touched: paths };
    const { runs, looked: firstLooked, plans: standing, atEntryPoints } = await lookAtEntryPointsIfNeeded(first, entryLook);
    if (!runs.patched || !runs.original)
      return notAssessed(budgetSpentReason(runs.patched ? runs.patchedMs : null, input.limitMs), true);
    if (!firstLooked) return notAssessed(unreachedReason(runs.patched.gate, runs.original.gate, input.fixed));
    // The look stands until a rival's disagreement has the versions run again for their noise (settle, below).
    let looked: Looked = firstLooked;
    const { functions, after, near, noise } = looked;
    // "No change at all" is a finding only from two whole runs: one cut short (a timeout, a crash)
    // can simply lack the failing tests' calls.
    const changed = looked.differences.changes.length > 0;
    const unfinished = changed ? null : unfinishedRun(runs.patched.gate, runs.original.gate, input.fixed);
    if (unfinished) return notAssessed(unfinished, runs.exhausted);
    // Every look above ran under the test runner: the calls the patch changed are made again outside it.
    const alone = madeAloneIn(first.runs.patched);
    const alike = sameUnder(noise);
    const tools = { suite: input.suite, left, log: input.log };
    const outsideLook = await lookFromOutside(checkout, standing, { ...runs, alone, alike }, tools);
    const level = (alternatives: NonNullable<LevelInput['alternatives']>, rivalSearch?: Assessment['rivalSearch']) => {
      const { differences, specialCase } = looked;
      return decideLevel({
        ...(input.chosen ? { chosen: input.chosen } : {}),
        changes: differences.changes,
        alternatives,
        probed: [...(runs.patched?.functions.values() ?? [])].map((f) => `${f.path}:${f.line} ${f.name}`),
        counts: { suiteCalls: after.suiteCalls, generatedInputs: differences.generatedCompared, unstable: differences.unstable },
        budget: used(runs.exhausted),
        failingSeparated: runs.failing !== null,
        ...(atEntryPoints ? { atEntryPoints: atEntryPoints.why } : {}),
        ...(rivalSearch ? { rivalSearch } : {}),
        ...(input.behaviourUnchanged ? { behaviourUnchanged: true } : {}),
        ...(specialCase ? { specialCase } : {}),
        ...(outsideLook ? { outsideLook } : {}),
      });
    };
    const provisional = level(engineAlternatives(others, runs.alternatives, { after, functions, near, noise }));
    // The engine offered no other plausible patch, and nothing else keeps this one from `verified`:
    // the rivals of its lines decide whether the tests do.
    if (others.length > 0 || !input.searchRivals || input.fixed.length === 0 || provisional.level !== 'verified')
      return provisional;
    const suiteRunMs = runs.patched.gate?.durationMs ?? 0;
    const basis = rivalBasis(input, { ...searchAt, focused: runs.focused ? [runs.focused] : [] }, standing.original);
    const begun = (await early?.want(basis.written, Date.now() + searchShare(left(), suiteRunMs))) ?? undefined;
    const rivals = await compareRivals({
      ...basis,
      ...(begun ? { begun } : checkouts.later),
      plan: (versions) => rivalPlans(versions, { originals, probed, entries: atEntryPoints?.entries, dir }),
      looked: { after, functions, near, noise },
      // Every changed call, the entry points' too (rival-screen.ts says why `alone` is not needed there).
      screen: rivalScreen({ original: runs.original, patched: runs.patched, alike }, near, { ...tools, suite: checkouts.suite }),
      // A rival that disagrees may do so in noise only: the versions run again first, once.
      settle: async () =>
        (looked = (await lookWithNoise(checkout, standing, runs, { input, left, fromFailing })) ?? looked).noise,
      suiteRunMs,
    });
    runs.exhausted ||= rivals.exhausted;
    return level(rivals.compared, rivals.search);
  } catch (error) {
    input.log(`assessment: ${(error as Error).message}`);
    return notAssessed(`the assessment failed: ${(error as Error).message}`);
  } finally {
    // A search begun beside the look stops first: its runs write into the checkouts removed below.
    await early?.settle();
    // The second checkout too, when the rival search ended without closing it (it threw).
    for (const made of [dir, `${dir}-b`, `${dir}-hidden`])
      await rm(made, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The versions to compare, planned, and the assessment's checkout, set up, where they run. */
interface PreparedVersions {
  chosen: PatchedVersion;
  others: Array<{ info: CandidateInfo; version: PatchedVersion }>;
  /** The files whose functions are probed: source files outside the tests. */
  probed: (path: string) => boolean;
  /** Every file any version changes. */
  paths: Set<string>;
  /** Their original text, the tests as the patch has them. */
  originals: Map<string, string | null>;
  testFiles: string[];
  checkout: ProbeCheckout;
  /** Commands that run the failing tests alone, best first. */
  focused: string[];
  plans: Plans;
  /** Whether a call on the original program was made by a failing test (used when they could not run alone). */
  fromFailing: (record: ProbeRecord) => boolean;
}

/**
 * The chosen patch and the engine's alternatives applied in memory to the pristine checkout in
 * `dir`, which is then set up and planned for the probed runs; a string says why there is nothing
 * to assess (no source file changed, or the setup failed).
 */
async function prepareVersions(input: AssessInput, dir: string): Promise<PreparedVersions | string> {
  const original = (path: string) => readText(join(dir, path));
  const chosen = await applyInMemory('patch', input.patch, original);
  const others = await alternativeVersions(input.alternatives.slice(0, MAX_ALTERNATIVES), original);
  const probed = (path: string) => probeable(path) && !input.isTestFile(path);
  const paths = new Set([chosen, ...others.map((o) => o.version)].flatMap((v) => [...v.files.keys()]));
  if (![...paths].some(probed)) return `the patch changes no ${probedKinds()} source file outside the tests`;
  const originals = new Map(await Promise.all([...paths].map(async (p) => [p, await original(p)] as const)));
  // The tests are the same in every version, the patch's own ones too (a test the engine wrote
  // first, red → green): the original program runs them as the baseline did, failing.
  for (const [path, text] of chosen.files) if (input.isTestFile(path)) originals.set(path, text);
  input.log('assessment: setting up its checkout');
  const setup = await input.suite.setup(dir);
  if (setup && setup.exitCode !== 0) return 'the setup failed in the assessment’s checkout';
  const testFiles = (await repositoryFiles(dir)).filter(input.isTestFile);
  const versions = [chosen, ...others.map((o) => o.version)];
  const scripts = await packageScripts(dir);
  const probedCommand = withoutCheckSteps(input.suite.testCommand, await directLaunchOf(dir, scripts));
  if (probedCommand) input.log(`assessment: the probed runs leave out the test command's checks: \`${probedCommand}\``);
  const probedSuite = probedCommand ? withWholeRunsOf(input.suite, probedCommand) : input.suite;
  const checkout = probeCheckout(dir, probedSuite, testFiles, valuesOfVersions(originals, versions, probed));
  // Each rival's run costs what the failing tests' run does: their files are selected where the runner can.
  const focused = focusChoices(input.suite.testCommand, input.fixed, scripts).map((choice) => choice.command);
  const plans = planVersions(originals, versions, probed);
  // Without a run of the failing tests alone, their calls are told by who made them.
  const fromFailing = fromFailingTests(
    input.fixed,
    await failingTestSpans(input.fixed, { read: (path) => readText(join(dir, path)), testFiles: async () => testFiles }),
  );
  return { chosen, others, probed, paths, originals, testFiles, checkout, focused, plans, fromFailing };
}

type Plans = { original: VersionPlan; versions: VersionPlan[] };

/** Runs that stand, what they showed (absent: nothing to compare), their plans, and why they are at the entry points when they are. */
interface Look {
  runs: VersionRuns;
  looked?: Looked | null;
  plans: Plans;
  atEntryPoints?: { why: EntryReason; entries: Map<string, Set<number>> };
}

/**
 * Nothing the patch changed was reached (a table or a constant that code elsewhere reads), or it
 * was and showed no change (the fix works through a function only the patch has, or through state
 * the probes do not record), or it showed changes outside the failing tests, to be shown at the
 * public functions the tests call too (entry-look.ts): look where the failing tests enter the
 * program. The second look stands when it ran to the end (secondLookStands); else the first one's
 * result does.
 */
async function lookAtEntryPointsIfNeeded(
  first: Look,
  at: {
    checkout: ProbeCheckout;
    dir: string;
    input: AssessInput;
    focused: string[];
    left: () => number;
    fromFailing: (record: ProbeRecord) => boolean;
    touched: Set<string>;
  },
): Promise<Look> {
  const { runs, looked } = first;
  if (!runs.patched || !runs.original) return first;
  const why = entryLookWhy(looked ? looked.differences : null, { leftMs: at.left(), suiteMs: runs.patchedMs });
  if (!why) return first;
  const entries = await entryPoints({
    dir: at.dir,
    fixed: at.input.fixed,
    isTestFile: at.input.isTestFile,
    touched: at.touched,
    inTouched: why !== 'outer',
    originals: new Map([...first.plans.original.files].map(([path, file]) => [path, file.text])),
  });
  if (entries.size === 0) return first;
  const said = why === 'outer' ? 'changes outside the failing tests' : ENTRY_REASONS[why];
  at.input.log(`assessment: ${said}; probing where the failing tests enter the program (${[...entries.keys()].join(', ')})`);
  const plans = await withEntryPoints(first.plans, entries, at.dir);
  const focused = runs.focused ? [runs.focused] : at.focused;
  const { runs: second, looked: secondLook } = await runAndLook(at.checkout, plans, { ...at, focused });
  const ranBoth = second.patched !== null && second.original !== null;
  if (secondLookStands(why, ranBoth, secondLook ? secondLook.differences : null, looked !== null))
    // Shown at the outer calls too, the level's reason unchanged: only a look that found nothing at the patch's own functions is one "at the entry points".
    return { runs: second, looked: secondLook, plans, ...(why === 'outer' ? {} : { atEntryPoints: { why, entries } }) };
  runs.exhausted ||= second.exhausted;
  return first;
}

/** The versions planned for the rivals' runs, probed where the chosen patch's run was (the entry points too, when it was there). */
async function rivalPlans(
  versions: PatchedVersion[],
  at: {
    originals: Map<string, string | null>;
    probed: (path: string) => boolean;
    entries: Map<string, Set<number>> | undefined;
    dir: string;
  },
): Promise<Plans> {
  const plans = planVersions(at.originals, versions, at.probed);
  return at.entries ? withEntryPoints(plans, at.entries, at.dir) : plans;
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}
