// One sentence per run, for the terminal, the status comment and the PR title area.
import type { RunResult } from '../core/run-result.ts';
import { needsReview } from '../core/assessment-level.ts';
import { reviewHeadline } from './review-headline.ts';
import { cancelledWhere } from './cancellation.ts';
import { checkHeadline, checksLeft } from './check-headline.ts';
import { flakyHeadline, flakyNote } from '../report/flaky-section.ts';

/** How to have the goal turned into a failing test first (docs/engines.md). */
const WRITE_TEST_HINT =
  'An engine that writes tests (agent, with a model, or cli) turns the goal into a failing test first: add it to the cascade (e.g. `--engine repair,agent`).';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function headlineFor(result: RunResult): string {
  if (result.status === 'flaky' || result.status === 'error') return statusHeadline(result);
  // The flaky tests a run found are named after what it did, whatever it did (docs/design.md §3.2.8).
  return `${statusHeadline(result)}${flakyNote(result)}`;
}

function statusHeadline(result: RunResult): string {
  const attempts = plural(result.attempts.length, 'attempt');
  if (result.stopReason === 'cancelled')
    return `Cancelled${result.cancelled ? ` ${cancelledWhere(result.cancelled)}` : ''}, after ${attempts}: no patch was verified; the logs so far are kept.`;
  if (result.replay && result.status !== 'error') return replayHeadline(result);
  switch (result.status) {
    case 'tests_green': {
      // The judge held, and the assessment found something a person should see: the tests pass, no more.
      if (result.assessment && needsReview(result)) return reviewHeadline(result, result.assessment);
      if (result.checks) return checkHeadline(result, attempts) ?? '';
      const fixed = result.verification?.failToPass.length ?? 0;
      const total = result.final?.parsed ? `, ${result.final.passed}/${result.final.total} passing` : '';
      // The operator's opt-in for suites fixloop cannot read: nothing per test was seen, and it says so.
      if (result.verification?.evidence === 'exit-code')
        return `Verified by exit code only after ${attempts}: the test command now exits 0 on a pristine checkout; its output could not be read per test (test.evidence: exit-code).`;
      return `Verified fix after ${attempts}: ${fixed === 0 ? 'the suite now passes' : fixed === 1 ? '1 failing test now passes' : `${fixed} failing tests now pass`}; replayed on a pristine checkout${total}, no test weakened.`;
    }
    case 'nothing_to_fix':
      if (result.checks) return checkHeadline(result, attempts) ?? '';
      if (result.redGreen?.notTried)
        return `Nothing to fix: the test suite already passes${result.baseline.parsed ? ` (${plural(result.baseline.passed, 'test')})` : ''}, and the goal was not used: no failing test was written first (${result.redGreen.notTried}). ${WRITE_TEST_HINT}`;
      if (result.redGreen?.explanation)
        return `Nothing to fix: every test passes, and no test that fails on the pristine code could be written (${result.redGreen.explanation}).`;
      return `Nothing to fix: the test suite already passes${result.baseline.parsed ? ` (${plural(result.baseline.passed, 'test')})` : ''}. Add a failing test that shows the bug and run again.`;
    case 'flaky':
      return flakyHeadline(result);
    case 'escalated':
      return `Escalated to a human after ${attempts}: ${stopText(result)}.`;
    case 'failed_to_green':
      return `Not fixed after ${attempts}: ${stopText(result)}.`;
    case 'error':
      return `Error: ${result.error?.message.split('\n')[0] ?? 'unknown'}`;
  }
}

/** A stored patch judged again: no engine ran, so no attempts to count. */
function replayHeadline(result: RunResult): string {
  const total = result.final?.parsed ? `, ${result.final.passed}/${result.final.total} passing` : '';
  if (result.status === 'tests_green')
    return `Verified again: run ${result.runId}'s stored patch passes on a pristine checkout${total}, no test weakened.`;
  const verification = result.verification;
  const why =
    verification?.findings[0]?.message ??
    (verification?.passToFail.length
      ? `${plural(verification.passToFail.length, 'test')} that passed before now failing`
      : 'the suite still fails');
  return `Not verified again: run ${result.runId}'s stored patch did not hold on a pristine checkout: ${why}.`;
}

function stopText(result: RunResult): string {
  const failing = result.checks ? checksLeft(result) : (judgeRefusal(result) ?? testsLeft(result));
  switch (result.stopReason) {
    case 'no_progress':
      return `no progress (the same failure twice); ${failing}`;
    case 'consecutive_failures':
      return `too many failed attempts in a row without progress; ${failing}`;
    case 'engines_exhausted':
      return `every engine gave up; ${failing}`;
    case 'time_budget':
      return `the time budget was spent; ${failing}`;
    case 'budget': {
      const stop = [...result.attempts].reverse().find((a) => a.budgetStop ?? a.review?.budgetStop);
      const message = stop?.budgetStop?.message ?? stop?.review?.budgetStop?.message;
      return `${message ? `${message}` : 'a budget was used up'}; ${failing}`;
    }
    case 'max_attempts':
      return `all attempts used; ${failing}`;
    case 'verification_failed': {
      const finding = result.verification?.findings[0];
      return finding ? `the judge refused the patch: ${finding.message}` : 'the patch did not pass verification';
    }
    case 'cancelled':
      return 'cancelled';
    default:
      return failing;
  }
}

function testsLeft(result: RunResult): string {
  return result.final?.parsed ? `${plural(result.final.failed, 'test')} still failing` : 'the suite still fails';
}

/**
 * The last patch turned every test green and the judge refused it: "0 tests still failing" would hide
 * why the run ended unfixed. Null otherwise.
 */
function judgeRefusal(result: RunResult): string | null {
  const finding = result.verification?.findings[0];
  if (!finding || result.verification?.passed || !result.final?.parsed || result.final.failed > 0) return null;
  return `the last patch passed the tests, and the judge refused it: ${finding.message}`;
}
