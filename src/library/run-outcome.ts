// What the library's `run` returns: the few fields a pipeline branches on, by status, with the full
// RunResult beside them for everything else (the report, the verification, the cost).
import type { RunResult, StopReason } from '../core/run-result.ts';
import type { AssessmentLevel } from '../core/assessment.ts';
import { assessmentLevel } from '../core/assessment-level.ts';

interface OutcomeBase {
  /** How many attempts ran (an engine's edits, then the gate). */
  attempts: number;
  /** The paths of `<taskId>-<attempt>.diff`, one per attempt, in order. */
  diffs: string[];
  /** The folder holding the diffs, and the run's report, result and logs in `<taskId>/`. */
  artifactsDir: string;
  /** Said once per run, e.g. that the `process` sandbox isolates nothing but the environment. */
  warnings: string[];
  result: RunResult;
}

/** The patch passed the tests in the workspace and again, replayed and compared per test, on a pristine checkout. */
export interface GreenOutcome extends OutcomeBase {
  status: 'tests_green';
  /** The verified patch, a unified diff against the repository's last commit. */
  patch: string;
  /**
   * What the assessment made of the patch (docs/design.md §3.3; `result.assessment` has the details):
   * `verified`, nothing changed outside the failing tests; `review`, the tests pass but a person
   * should look (changes elsewhere, an ambiguity, or the assessment could not look); null when no
   * assessment ran (`assessment.enabled: false`).
   */
  level: AssessmentLevel | null;
}

/** No verified patch: the attempts or the time ran out, or the run was cancelled (`failed_to_green`); or it stopped making progress (`escalated`). */
export interface NotGreenOutcome extends OutcomeBase {
  status: 'failed_to_green' | 'escalated';
  stopReason: StopReason | null;
  /** The last attempt's log (the engine's notes and the test command's output), or the baseline's test output when no attempt ran. */
  lastOutput: string;
}

/** The tests already pass and no failing test was asked for: nothing ran. */
export interface NothingToFixOutcome extends OutcomeBase {
  status: 'nothing_to_fix';
}

/** The only failing tests were flaky (docs/design.md §3.2.8): nothing was repaired, no patch; `result.flakiness` names them. */
export interface FlakyOutcome extends OutcomeBase {
  status: 'flaky';
}

/** The run could not happen (a clone, the setup, an environment where no test runs): `error` says why. */
export interface ErrorOutcome extends OutcomeBase {
  status: 'error';
  error: { code: string; message: string };
}

export type RunOutcome = GreenOutcome | NotGreenOutcome | NothingToFixOutcome | FlakyOutcome | ErrorOutcome;

/** The outcome of a finished run, from its result and what the library stored beside it. */
export function outcomeOf(
  result: RunResult,
  stored: { diffs: string[]; artifactsDir: string; warnings: string[]; lastOutput: string },
): RunOutcome {
  const base: OutcomeBase = {
    attempts: result.attempts.length,
    diffs: stored.diffs,
    artifactsDir: stored.artifactsDir,
    warnings: stored.warnings,
    result,
  };
  switch (result.status) {
    case 'tests_green':
      return { status: 'tests_green', ...base, patch: result.patch, level: assessmentLevel(result) };
    case 'failed_to_green':
    case 'escalated':
      return { status: result.status, ...base, stopReason: result.stopReason ?? null, lastOutput: stored.lastOutput };
    case 'nothing_to_fix':
      return { status: 'nothing_to_fix', ...base };
    case 'flaky':
      return { status: 'flaky', ...base };
    case 'error':
      return { status: 'error', ...base, error: result.error ?? { code: 'INTERNAL', message: result.headline } };
  }
}
