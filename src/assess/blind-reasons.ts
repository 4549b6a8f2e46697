// What an assessment that could not look would have needed (docs/design.md §3.3): a reviewer told
// "could not look" learns nothing unless the reason says what was missing and how to give it.
import type { GateResult } from '../core/gate-result.ts';
import { seconds } from '../core/duration-words.ts';
import type { TestCaseResult } from '../core/test-report.ts';
import { unfinishedRun } from './unfinished-run.ts';

/**
 * The budget ran out before the suite ran on both versions: how long the one run that finished took
 * (none: not even the patched program's), against the budget it had.
 */
export function budgetSpentReason(patchedRunMs: number | null, limitMs: number): string {
  const needed =
    patchedRunMs === null
      ? `the patched program's probed suite run did not finish within the ${seconds(limitMs)} it had`
      : `the patched program's probed suite run took ${seconds(patchedRunMs)} of the ${seconds(limitMs)} it had, and the original needs as long`;
  return `the time budget ran out before the suite ran on both versions: ${needed} (a larger \`assessment.timeBudget\`, or a faster suite, lets it look)`;
}

/** Nothing recorded a call: what a look would have needed. */
export const UNREACHED_REASON =
  'the suite never called the changed functions, or they could not be probed: a look needs a test that calls a changed function, or a function the failing tests call that the probes can wrap (a module-level function or method, not code run at import or a value read from a table)';

/**
 * Nothing recorded a call: when a probed run did not finish (an instrumented file that did not load
 * under the project's runner fails every test importing it), that is why, and its first error says
 * what a look needs; else the suite did not reach what was probed.
 */
export function unreachedReason(
  patched: GateResult | null,
  original: GateResult | null,
  fixed: readonly TestCaseResult[],
): string {
  return unfinishedRun(patched, original, fixed) ?? UNREACHED_REASON;
}
