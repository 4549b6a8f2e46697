// Whether the assessment's two suite runs can show the fix at work: the fixed tests must pass on
// the patched program and have run on the original. Asked when the probes saw no change at all: a
// run cut short (a timeout, a crash) can simply lack the failing tests' calls.
import type { GateResult } from '../core/gate-result.ts';
import { viewOf, type TestCaseResult, type TestStatus } from '../core/test-report.ts';
import { finalStatus } from '../verify/compare-tests.ts';

/** Why not (null: they can), naming the first fixed test that did not pass or did not run. */
export function unfinishedRun(
  patched: GateResult | null,
  original: GateResult | null,
  fixed: readonly TestCaseResult[],
): string | null {
  const lost = fixed.filter((t) => status(patched, t.id) !== 'passed' || status(original, t.id) === undefined);
  if (lost.length === 0) return null;
  const error = firstError(patched?.output ?? '') ?? firstError(original?.output ?? '');
  return `the suite did not run to the end in the assessment's checkout: ${lost.length === 1 ? 'a test the patch fixed' : `${lost.length} tests the patch fixed`} (${lost[0]?.id ?? ''}) did not pass on the patched program or did not run on the original${error ? `; the probed run's first error: ${error} (a look needs the instrumented files to load and run under the project's runner)` : ''}`;
}

/** The tests the patch fixed that a probed run of the patched program did not pass (all of them when it gave no result). */
export function fixedNotPassed(patched: GateResult | null, fixed: readonly TestCaseResult[]): TestCaseResult[] {
  return fixed.filter((t) => status(patched, t.id) !== 'passed');
}

/**
 * A test's status in a run, read as the judge reads the replay: a runner that lists only failures
 * (jest's default reporter over several files) names no test of a run that passed whole. Here the
 * question is only whether the run got to the end, which counts with no failure say, though they
 * name no test.
 */
function status(gate: GateResult | null, id: string): TestStatus | undefined {
  return gate ? (finalStatus(gate.report, id) ?? countedPass(gate)) : undefined;
}

/**
 * The first error a run printed (a syntax or type error of an instrumented file, a module that did
 * not load): what a reviewer, or a fix to the probes, needs to know of a run that did not finish.
 */
function firstError(output: string): string | null {
  const found = /\b(?:[A-Z][A-Za-z]*Error(?=[:\s])[^\n]*|error TS\d+:[^\n]*)/.exec(output);
  return found ? found[0].trim().slice(0, 160) : null;
}

/** A run whose counts, naming no test, say every test passed. */
function countedPass(gate: GateResult): TestStatus | undefined {
  return viewOf(gate.report) === 'counts' && gate.report.failed === 0 && gate.report.total > 0 ? 'passed' : undefined;
}
