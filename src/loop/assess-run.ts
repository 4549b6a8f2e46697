// The assessment of a run's judged patch (docs/design.md §3.3), between the judge and the report: for a
// `tests_green` run whose patch the judge held, what else the patch changed outside the failing
// tests sets `assessment` (verified | review); a call it made again outside the runner that the patch
// fixes only under it ends the run not green (outside-verdict.ts). A replay, a run that is not green,
// or a repository that turned it off (`assessment.enabled: false`) has none, and its report says so.
import type { AlternativeCandidate } from '../engines/engine.ts';
import type { RunResult } from '../core/run-result.ts';
import type { TestCaseResult } from '../core/test-report.ts';
import { assessPatch } from '../assess/assess-patch.ts';
import { decideLevel, unguardedReason, unnamedFailingReason, withReason } from '../assess/assessment-level.ts';
import type { Assessment } from '../core/assessment.ts';
import { testFileCheck } from '../verify/harness-tampering.ts';
import { ASSESSMENT_SKIPPED_EVENT } from '../report/assessment-section.ts';
import type { PreparedRun } from './prepare-run.ts';
import type { RunContext } from './run-context.ts';
import { withOutsideVerdict } from './outside-verdict.ts';

/**
 * The least the assessment gets, however quick the run was: a few suite runs, probed (each slower than
 * the baseline's: every probed call is called again on generated inputs), and a second look at the
 * functions the failing tests call (entry-look.ts: five more) when the first could vary nothing.
 */
const MIN_BUDGET_MS = 60_000;
/** What it needs: the suite on both versions, the failing tests alone, an alternative, and the setup; as many baseline runs. */
const SUITE_RUNS = 5;
/** What the search for rivals needs besides (rival-search.ts): the failing tests alone for each candidate tried, and the rivals' suite runs. */
const RIVAL_RUNS = 5;
/**
 * What it cannot do without, in baseline runs: the suite on the patched version and twice on the
 * original (what differs between two runs of one version is noise), the failing tests alone, and the
 * probes' own cost (each suite call is called again on generated inputs): the floor of its budget.
 */
const MUST_RUNS = 6;

/**
 * A quarter of the run's time so far, or what five runs of the baseline's suite take when that is
 * more (ten when the assessment will look for rivals itself), and never less than MIN_BUDGET_MS +
 * MUST_RUNS baseline runs, so that a suite that runs in seconds always runs on both versions and twice
 * on the original; within `assessment.timeBudget` (a repository may lower a budget, never raise it:
 * the default cap leaves that floor whole for suites of up to 10 s) and what is left of the run's own.
 */
export function assessmentBudget(
  elapsedMs: number,
  baselineMs: number,
  capSeconds: number,
  runLeftMs: number,
  withRivals = false,
): number {
  const suiteRuns = SUITE_RUNS + (withRivals ? RIVAL_RUNS : 0);
  const share = Math.max(MIN_BUDGET_MS, elapsedMs / 4, suiteRuns * baselineMs);
  const floor = MIN_BUDGET_MS + MUST_RUNS * baselineMs;
  return Math.max(0, Math.min(capSeconds * 1000, Math.max(share, floor), runLeftMs));
}

export async function assessRun(ctx: RunContext, run: PreparedRun, judged: RunResult): Promise<RunResult> {
  const verification = judged.verification;
  if (judged.status !== 'tests_green' || judged.replay || !verification?.passed || !judged.patch) return judged;
  const unguarded = unguardedReason(verification.runtimeGuard);
  const unnamed = unnamedFailingReason(verification.baselineView);
  if (!run.config.assessment.enabled) {
    ctx.note(ASSESSMENT_SKIPPED_EVENT, '`assessment.enabled: false` in the repository’s configuration');
    // No assessment is published as a verified fix, which a judge that could not look inside, or
    // could not tell which tests the patch fixed, is not.
    return unguarded || unnamed
      ? { ...judged, assessment: notLooked('`assessment.enabled: false`', [unguarded, unnamed]) }
      : judged;
  }
  if (unnamed) {
    const level = notLooked(unnamed, [unguarded]);
    ctx.note('assess', `${level.level}: ${level.reason}`);
    return { ...judged, assessment: level };
  }
  const candidates = ctx.candidates;
  const limitMs = assessmentBudget(
    Date.now() - ctx.started,
    run.baseline.durationMs,
    run.config.assessment.timeBudget,
    run.deadline - Date.now(),
    !candidates.chosen,
  );
  ctx.progress({ phase: 'assess', message: `looking for what else the patch changed (within ${Math.round(limitMs / 1000)} s)` });
  const baselineTests = run.baseline.report.tests;
  const fixed = verification.failToPass.map(
    (id): TestCaseResult =>
      baselineTests.find((t) => t.id === id) ?? { id, name: id.split(/ > | › |::/).at(-1) ?? id, status: 'failed' },
  );
  const assessment = await assessPatch({
    mirror: run.created.mirror,
    seal: run.created.seal,
    baseSha: run.workspace.baseSha,
    patch: judged.patch,
    // The `repair` engine explored the other edits of its patch's place; any other engine's patch gets
    // them looked for here, so that it is compared with more than the original program.
    ...(candidates.chosen ? { chosen: candidates.chosen } : { searchRivals: true }),
    alternatives: candidates.alternatives.map((a: AlternativeCandidate) => ({
      patch: a.patch,
      summary: a.summary,
      ...(a.weakens ? { weakens: a.weakens } : {}),
      ...(a.passedOver ? { passedOver: a.passedOver } : {}),
    })),
    fixed,
    // A check run's patch (a lint or format fix) should change no behaviour at all.
    ...(run.config.checks.length > 0 ? { behaviourUnchanged: true } : {}),
    isTestFile: testFileCheck(run.config.paths.protected, new Set(baselineTests.flatMap((t) => (t.file ? [t.file] : [])))),
    suite: run.suite,
    scratchDir: ctx.scratch,
    limitMs,
    suiteMs: run.baseline.durationMs,
    deadline: run.deadline,
    log: (line) => ctx.progress({ phase: 'assess', message: line }),
  });
  const level = unguarded ? withReason(assessment, unguarded) : assessment;
  ctx.note('assess', `${level.level}: ${level.reason}`);
  const verdict = withOutsideVerdict({ ...judged, assessment: level });
  if (verdict.status !== judged.status) ctx.note('judge', 'refused: the patch works only under the test runner');
  return verdict;
}

/** The level of an assessment that did not look, `why`, with the reasons it could not be `verified` anyway first. */
function notLooked(why: string, reasons: Array<string | null>): Assessment {
  const level = decideLevel({ notAssessed: why, budget: { usedMs: 0, limitMs: 0, exhausted: false } });
  return reasons.reduceRight((assessment, reason) => (reason ? withReason(assessment, reason) : assessment), level);
}
