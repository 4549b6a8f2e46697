// The level a judged patch is shown at (docs/design.md §3.3), and the one sentence that says why.
// `verified` only when the assessment looked and found nothing a reviewer should see: no behaviour
// change outside the failing tests, no other plausible patch that disagrees, no check weakened; and
// it saw the patch at work (a change in the failing tests' calls or around them).
// Everything else is `review`, with what to look at.
import type {
  AlternativePatch,
  Assessment,
  BehaviourChange,
  OutsideLook,
  RunnerOnlyCall,
  SpecialCase,
  StaleBuild,
} from '../core/assessment.ts';
import type { RuntimeGuardStatus } from '../core/run-result.ts';
import type { TestView } from '../core/test-report.ts';
import { sharedByFunction } from './change-order.ts';
import { seconds } from '../core/duration-words.ts';

/** Another plausible patch as the engine described it, or as the assessment found it (rival-search.ts). */
export interface CandidateInfo {
  patch: string;
  summary: string;
  weakens?: string;
  passedOver?: string;
  foundBy?: 'assessment';
}

/** How many changes the report lists (the counts keep the whole number). */
const SHOWN_OUTSIDE = 20;
const SHOWN_NEAR = 5;
const SHOWN_DISAGREEMENTS = 5;

export type EntryReason = 'unreached' | 'unchanged' | 'ungenerated';

/** Why the failing tests' entry points were probed, as the reason and the log say it. */
export const ENTRY_REASONS: Record<EntryReason, string> = {
  unreached: 'the suite reaches no changed function',
  unchanged: 'the changed functions showed no change',
  ungenerated: 'no input could be generated around the changed functions’ calls',
};

export interface LevelInput {
  chosen?: { summary: string; weakens?: string };
  notAssessed?: string;
  /** What the probes found, once they ran (absent: no probe ran). */
  changes?: BehaviourChange[];
  /** Each compared alternative, with the inputs it disagrees on (null: not run within the budget). */
  alternatives?: Array<{ info: CandidateInfo; disagreements: AlternativePatch['disagreements'] | null }>;
  probed?: string[];
  counts?: { suiteCalls: number; generatedInputs: number; unstable?: number };
  budget: Assessment['budget'];
  /** Whether the failing tests' own calls could be told apart (else every change counts as outside). */
  failingSeparated?: boolean;
  /**
   * Why the functions probed are those the failing tests call: the suite reached no changed
   * function, or the changed functions it reached showed no change.
   */
  atEntryPoints?: EntryReason;
  rivalSearch?: Assessment['rivalSearch'];
  /** The patch changes behaviour only at the failing tests' own inputs (special-case.ts). */
  specialCase?: Assessment['specialCase'];
  /**
   * The patch is meant to change no behaviour (a check run's: a lint or format fix): seeing no change
   * at all is then what it should show, not a blind spot.
   */
  behaviourUnchanged?: boolean;
  /** The suite's changed calls made again outside the test runner (outside-look.ts). */
  outsideLook?: OutsideLook;
}

export function decideLevel(input: LevelInput): Assessment {
  const changes = input.changes ?? [];
  const outside = changes.filter((c) => !c.nearFailing);
  const near = changes.filter((c) => c.nearFailing);
  const alternatives: AlternativePatch[] = (input.alternatives ?? []).map(({ info, disagreements }) => ({
    summary: info.summary,
    ...(info.foundBy ? { foundBy: info.foundBy } : {}),
    ...(info.weakens ? { passedOver: `it ${info.weakens}` } : info.passedOver ? { passedOver: info.passedOver } : {}),
    // The failing tests' own calls first: there the tests accepted both results.
    disagreements: [...(disagreements ?? [])]
      .sort((a, b) => Number(b.atFailingTests ?? false) - Number(a.atFailingTests ?? false))
      .slice(0, SHOWN_DISAGREEMENTS),
  }));
  // One as good that disagrees anywhere is an ambiguity. A weakening one was passed over for a
  // reason, except where it gives a failing test's own call another result: that test accepts both
  // (`.unshift('')` against the line deleted, both matching /Arguments:\n +file/), so it does not
  // say which result the fix should give.
  const ambiguous = (input.alternatives ?? []).filter(isAmbiguity);
  const counts = {
    suiteCalls: input.counts?.suiteCalls ?? 0,
    generatedInputs: input.counts?.generatedInputs ?? 0,
    changes: changes.length,
    nearFailing: near.length,
    ...(input.counts?.unstable ? { unstable: input.counts.unstable } : {}),
  };
  const base = {
    behaviourChanges: [...sharedByFunction(outside, SHOWN_OUTSIDE), ...sharedByFunction(near, SHOWN_NEAR)],
    alternatives,
    probed: input.probed ?? [],
    counts,
    budget: input.budget,
    ...(input.atEntryPoints ? { atEntryPoints: true as const } : {}),
    ...(input.rivalSearch ? { rivalSearch: input.rivalSearch } : {}),
    ...(input.specialCase ? { specialCase: input.specialCase } : {}),
    ...(input.outsideLook ? { outsideLook: input.outsideLook } : {}),
  };
  const reasons: string[] = [];
  if (input.chosen?.weakens) reasons.push(`the patch ${input.chosen.weakens}`);
  if (input.notAssessed) reasons.push(`the assessment could not look: ${input.notAssessed}`);
  // The failing tests pass now, so something they run behaves otherwise: probes that recorded no
  // change at all did not see how the patch works, and cannot say it changed nothing else.
  if (input.changes && changes.length === 0 && !input.behaviourUnchanged)
    reasons.push(
      'the probes saw no change at all, not even in the failing tests that pass now: the patch works through something they do not record (state outside the calls’ arguments and results, output), so what else it changes was not seen',
    );
  // The suite's own calls are what the patch was made to pass: unchanged outside the failing tests
  // there says no more than the judge did. Positive evidence needs inputs nobody chose for the tests.
  if (changes.length > 0 && !input.behaviourUnchanged && input.counts && input.counts.generatedInputs === 0)
    reasons.push(
      'only the suite’s own calls were compared: no input could be generated around them or around the public functions the failing tests call (none of their arguments is plain data, or what they hold could not be copied), so nothing beyond what the tests check was tried',
    );
  if (outside.length > 0) reasons.push(`${plural(outside.length, 'behaviour change')} outside the failing tests`);
  if (input.specialCase) reasons.push(specialCaseReason(input.specialCase));
  const runnerOnly = input.outsideLook?.runnerOnly[0];
  if (runnerOnly) reasons.push(runnerOnlyReason(runnerOnly, input.outsideLook?.count ?? 1));
  const off = input.outsideLook?.offWhereDeployed;
  if (off?.calls[0]) reasons.push(offWhereDeployedReason(off.calls[0], off.count, off.settings));
  const stale = input.outsideLook?.staleBuilds?.[0];
  if (stale) reasons.push(staleBuildReason(stale, input.outsideLook?.staleBuilds?.length ?? 1));
  const unfinished = input.notAssessed ? null : unfinishedReason(input.budget, input.rivalSearch);
  if (unfinished) reasons.push(unfinished);
  if (ambiguous.length > 0)
    reasons.push(
      `${plural(ambiguous.length, 'other plausible patch', 'other plausible patches')} ${ambiguous.length === 1 ? 'gives' : 'give'} other results: the tests do not decide between them`,
    );
  if (reasons.length > 0)
    return {
      level: 'review',
      reason: reasons.join('; '),
      ...base,
      ...(input.notAssessed ? { notAssessed: input.notAssessed } : {}),
    };
  const where = input.atEntryPoints ? `, at the functions the failing tests call (${ENTRY_REASONS[input.atEntryPoints]})` : '';
  const looked = `${plural(counts.suiteCalls, 'call')} of the suite and ${plural(counts.generatedInputs, 'generated input')}${where}`;
  return {
    level: 'verified',
    reason: `no behaviour change outside the failing tests in ${looked}${alternatives.length > 0 ? `; the ${plural(alternatives.length, 'other plausible patch', 'other plausible patches')} ${alternatives.length === 1 ? 'agrees or weakens' : 'agree or weaken'} a check` : ''}`,
    ...base,
  };
}

/**
 * `verified` says the assessment looked and found nothing; a look its time cut short found nothing
 * only as far as it went. Why it did not finish, with the setting that gives it more time; null when it did.
 */
export function unfinishedReason(budget: Assessment['budget'], search: Assessment['rivalSearch']): string | null {
  const more = `(\`assessment.timeBudget\` gives it more than ${seconds(budget.limitMs)})`;
  if (budget.exhausted)
    return `the assessment's time ran out before it had compared everything ${more}: what else the patch changes was not all seen`;
  const passed = (search?.tried ?? 0) + (search?.screened ?? 0);
  if (search?.stopped === 'time' && passed < search.candidates)
    return `the assessment's time ran out after ${passed} of the ${search.candidates} one-edit patches at the lines the patch changed were tried ${more}: whether another that passes the failing tests gives other results is not known`;
  if (search?.stopped === 'error')
    return 'the search for other plausible patches stopped on an error: whether one gives other results is not known';
  return null;
}

/** A shipped build that keeps a changed function as it was: what users load is not what the tests ran. */
function staleBuildReason(stale: StaleBuild, count: number): string {
  const more = count > 1 ? ` (and ${plural(count - 1, 'more copy', 'more copies')})` : '';
  return `the package ships \`${stale.shipped}\`, a copy that defines \`${stale.function}\` as it was before the patch, which changed it in \`${stale.changed}\`${more}: users who load the copy keep the old behaviour until it is built or copied again`;
}

/** The named reason of a patch that answers the tests, not the bug. */
export const SPECIAL_CASE_REASON = 'changes behaviour only at the failing tests’ own inputs';

function specialCaseReason(found: SpecialCase): string {
  const inputs = found.inputs.slice(0, 3).join(', ') + (found.inputs.length > 3 ? ', …' : '');
  const keyed = found.keyedOn
    ? ` with another ${found.keyedOn.map((k) => k.replace(/ = .*/s, '')).join(' or ')} (it changes only where ${found.keyedOn.join(', ')})`
    : '';
  const spelt = found.sameInput
    ? ` (and at ${plural(found.sameInput, 'input')} the function takes as one of them, another case or spacing)`
    : '';
  const named = found.namedInputs
    ? ` (and at ${plural(found.namedInputs, 'input')} the patch names itself, a value of its own lines)`
    : '';
  // Neighbours that all give one result may not reach the change at all: the finding is then weaker, and said so.
  if (found.oneResult !== undefined)
    return `the patch ${SPECIAL_CASE_REASON} (${inputs})${spelt}${named}, at none of the ${plural(found.neighbours, 'input')} generated around them${keyed}; but every one of those gives ${clipped(found.oneResult)} in both versions, so they may not reach what it changed: check that the fix holds at other inputs, and that it is no lookup of the tests' literals`;
  return `the patch ${SPECIAL_CASE_REASON} (${inputs})${spelt}${named}, at none of the ${plural(found.neighbours, 'input')} generated around them${keyed}: it answers the tests, not the bug (a lookup of their literals, or code that reads the expected values)`;
}

/**
 * The patch acts only under the test runner, beside its tests: the tests see a fix that a program
 * run without them would not have (the runner detected by its variables, globals, files or process,
 * or the answer read from the tests).
 */
export function runnerOnlyReason(call: NonNullable<OutsideLook['runnerOnly'][number]>, count: number): string {
  const others = count > 1 ? ` (and ${plural(count - 1, 'other call')})` : '';
  const where = call.built
    ? `in a plain process on \`${call.built}\`, the copy the package's build ships`
    : 'in a plain process without the tests';
  return `the patch works only under the test runner, beside its tests: \`${clipped(call.input)}\`${others} gives ${clipped(call.underRunner)} there, but ${clipped(call.outside)} ${where}, where the original gives ${clipped(call.original)} in both`;
}

/**
 * The fix is off under the settings a deployed program runs with: the tests (and development) see it,
 * the program's users may not. A fix to a development-only check is off there by design, so this is
 * for a reviewer, not a refusal.
 */
export function offWhereDeployedReason(call: RunnerOnlyCall, count: number, settings: string): string {
  const others = count > 1 ? ` (and ${plural(count - 1, 'other call')})` : '';
  return `the fix is off where the program is deployed: with ${settings}, \`${clipped(call.input)}\`${others} gives ${clipped(call.outside)}, as the original does, against ${clipped(call.underRunner)} under the runner: is it made for development and the tests only?`;
}

function clipped(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Whether a compared alternative leaves the tests undecided (decideLevel says why a weakening one mostly does not). */
export function isAmbiguity(alternative: NonNullable<LevelInput['alternatives']>[number]): boolean {
  return (alternative.disagreements ?? []).some((d) => !alternative.info.weakens || d.atFailingTests);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

/**
 * Without fixloop's runtime guard in the replay's test processes, the judge saw less than it can
 * (docs/design.md §3.2.7): the level is `review`, unless the operator accepted less evidence.
 */
export function unguardedReason(guard: RuntimeGuardStatus | undefined): string | null {
  if (!guard || guard.available || guard.accepted) return null;
  return 'runtime guard: not available for this runner, so the judge did not see inside the test processes (`test.evidence: exit-code` accepts that)';
}

/**
 * Where the judged baseline's tests were counted and not named, or not read at all, which tests
 * failed is unknown (docs/design.md §3.2.1): the failing tests' own calls cannot be told from the
 * rest's, so the assessment cannot look, and the level says why rather than count every change as
 * one outside the failing tests.
 */
export function unnamedFailingReason(baselineView: TestView | undefined): string | null {
  const why: Partial<Record<TestView, string>> = {
    counts: "the baseline's tests were counted but not named, neither by the runner's output nor from inside its test processes",
    none: "the baseline's output could not be read per test",
  };
  const said = baselineView ? why[baselineView] : undefined;
  return said
    ? `which tests failed is unknown (${said}), so the failing tests' own calls cannot be told apart from the rest`
    : null;
}

/** The assessment with a reason it cannot be `verified` put first. */
export function withReason(assessment: Assessment, reason: string): Assessment {
  return { ...assessment, level: 'review', reason: assessment.level === 'review' ? `${reason}; ${assessment.reason}` : reason };
}
