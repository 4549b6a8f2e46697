// The probed runs of each version in the assessment's checkout (probe-checkout.ts): the suite on the
// patched program, then on the original, the failing tests alone on the original (where a change is
// expected), then each alternative; and, when there is a difference to explain, the original again
// and the patched program again when the time left allows it (what differs between two runs of one
// version is noise, not a change: same-version-noise.ts), each within what is left of the time budget. Of the commands that
// run the failing tests alone (focusChoices, src/runners/focused-test-command.ts), best first, the
// first that reports them all stands.
import type { TestCaseResult } from '../core/test-report.ts';
import { fixedNotPassed } from './unfinished-run.ts';
import { runWithin, type Generation, type GenerationStop, type ProbeCheckout, type ProbeRun } from './probe-checkout.ts';
import type { VersionPlan } from './probe-plan.ts';

/** The patched program runs again when the time left is at least this many times its first run. */
const AGAIN_WHEN_LEFT = 3;

export interface VersionRuns {
  patched: ProbeRun | null;
  original: ProbeRun | null;
  /** The same version run again (null: not run, for want of time): their differences are noise. */
  originalAgain: ProbeRun | null;
  patchedAgain: ProbeRun | null;
  failing: ProbeRun | null;
  /** The command that ran the failing tests alone (null: none could). */
  focused: string | null;
  alternatives: Array<ProbeRun | null>;
  exhausted: boolean;
  /** How long the patched program's first run took. */
  patchedMs: number;
  /** Whether the versions were run again for noise (runAgain). */
  againRun: boolean;
}

/** After a probed run generated calls broke, the calls turned off, in order, and each run's label. */
const GENERATION_RETRIES: ReadonlyArray<{ from: Generation; stop: GenerationStop; without: string; label: string }> = [
  {
    from: 'all',
    stop: 'nested',
    without: 'inputs generated around functions nested in others',
    label: 'patched-top-level-generated',
  },
  { from: 'top-level', stop: 'all', without: 'generated inputs', label: 'patched-suite-calls-only' },
];

/** The suite on the patched program, then the original, the failing tests alone, the alternatives: as long as the budget lasts. */
export async function runVersions(
  checkout: ProbeCheckout,
  plans: { original: VersionPlan; versions: VersionPlan[] },
  input: { fixed: TestCaseResult[]; log: (line: string) => void },
  focused: string[],
  left: () => number,
): Promise<VersionRuns> {
  const [patchedPlan, ...alternativePlans] = plans.versions;
  const runs: VersionRuns = {
    patched: null,
    original: null,
    originalAgain: null,
    patchedAgain: null,
    failing: null,
    focused: null,
    alternatives: [],
    exhausted: false,
    patchedMs: 0,
    againRun: false,
  };
  const step = async (plan: VersionPlan | undefined, label: string, command?: string): Promise<ProbeRun | null> => {
    if (!plan) return null;
    const { run, exhausted } = await runWithin(checkout, plan, label, left, input.log, command);
    runs.exhausted ||= exhausted;
    return run;
  };
  const started = Date.now();
  runs.patched = await step(patchedPlan, 'patched');
  runs.patchedMs = Date.now() - started;
  // The replay passed the fixed tests; a probed run that did not may have been broken by a generated
  // call (a process ended, a test's own time limit passed, a closure's call changed the locals of the
  // call around it): the versions run without those around nested functions, then without any. A run
  // not made (nothing instrumented: a patch that changes a table, no function) generated nothing, and
  // turning generation off for it would leave the look at the entry points without any.
  const broken = () =>
    runs.patched?.gate != null && fixedNotPassed(runs.patched.gate, input.fixed).length > 0 && left() > 2 * runs.patchedMs;
  for (const retry of GENERATION_RETRIES) {
    if (checkout.generating() !== retry.from || !broken()) continue;
    input.log(
      `assessment: the probed run did not pass every test the patch fixed; running the versions again without ${retry.without}`,
    );
    await checkout.stopGenerating(retry.stop);
    runs.patched = await step(patchedPlan, retry.label);
  }
  runs.original = await step(plans.original, 'original');
  // The first selection whose run reports every fixed test; the last one (names alone) as it is.
  for (const [i, command] of (input.fixed.length > 0 ? focused : []).entries()) {
    runs.failing = await step(plans.original, 'failing-tests', command);
    runs.focused = command;
    const reported = new Set(runs.failing?.gate?.report.tests.map((t) => t.id) ?? []);
    if (!runs.failing || i === focused.length - 1 || input.fixed.every((t) => reported.has(t.id))) break;
    input.log(`assessment: \`${command}\` did not report every test the patch fixed; selecting them by name alone`);
  }
  for (const [i, plan] of alternativePlans.entries()) runs.alternatives.push(await step(plan, `alternative-${i + 1}`));
  return runs;
}

/**
 * Each version run again, for what differs between two runs of one version (noise): the original,
 * then the patched program (a timestamp that the original's two runs happened to share) when the
 * time left is as much again: the rivals' search comes after. Asked only when there is a difference
 * for noise to explain (assess-patch.ts): masking can only take changes away, never add one.
 */
export async function runAgain(
  checkout: ProbeCheckout,
  plans: { original: VersionPlan; versions: VersionPlan[] },
  runs: VersionRuns,
  input: { log: (line: string) => void },
  left: () => number,
): Promise<void> {
  const step = async (plan: VersionPlan | undefined, label: string): Promise<ProbeRun | null> => {
    if (!plan) return null;
    const { run, exhausted } = await runWithin(checkout, plan, label, left, input.log);
    runs.exhausted ||= exhausted;
    return run;
  };
  runs.againRun = true;
  runs.originalAgain = runs.original ? await step(plans.original, 'original-again') : null;
  if (runs.patched && left() > AGAIN_WHEN_LEFT * runs.patchedMs)
    runs.patchedAgain = await step(plans.versions[0], 'patched-again');
}
