// What a verdict rested on, in the words every rendering of the report shares (docs/design.md §3.2.1):
// where the replay's per-test view came from, inside the test processes, the runner's output, or
// counts with no test named (never called "per-test"), or the exit code alone; the runner's own
// report beside it; and the second observation.
import type { CopyObservation, ExpectationObservation, RunResult, TestCounts } from '../core/run-result.ts';
import type { TestView } from '../core/test-report.ts';

/** Under the tests table: a baseline whose tests were counted and none named. */
export const COUNTS_ONLY_NOTE =
  "The baseline's tests were counted but not named, neither by the runner's output nor from inside its test processes: which tests failed is unknown.";

const SOURCE: Record<TestView, string> = {
  inside: 'per-test, from inside the test processes',
  output: "per-test, from the runner's output",
  counts: "counts only (no test named, neither by the runner's output nor from inside its test processes)",
  none: 'the exit code alone (the output could not be read per test; `test.evidence: exit-code`)',
};

/** A run's counts' view; one stored before views existed was read from the output, or not at all. */
export function countsView(counts: TestCounts): TestView {
  return counts.view ?? (counts.parsed ? 'output' : 'none');
}

/** The evidence line of a replay whose suite passed. */
export function evidenceWords(result: RunResult): string {
  const v = result.verification;
  const counts = v?.gate?.counts;
  const witness = counts?.witness
    ? `${counts.witness.runner}'s JUnit XML: ${counts.witness.total} tests, ${counts.witness.failed} failed`
    : null;
  const view = counts ? countsView(counts) : 'none';
  const agreeing =
    view === 'none' || !counts
      ? witness
        ? `, and the runner's own report (${witness})`
        : ''
      : `: the replay's ${counts.total} tests agree with its exit code${witness ? `, and the runner's own report (${witness})` : ''}`;
  const alone = v?.alone;
  const second = !alone
    ? ''
    : alone.ran > 0
      ? `; each fixed test also passed run on its own (${alone.ran}, e.g. \`${alone.command}\`)`
      : '; the fixed tests could not be run on their own (the runner or the command does not allow selecting one)';
  return SOURCE[view] + agreeing + second + copiedWords(alone?.copied) + expectationWords(alone?.expectations);
}

/** The fixed tests from copies of their files: how many passed there, or why that was not checked. */
function copiedWords(copied: CopyObservation | undefined): string {
  if (!copied) return '';
  if (copied.ran > 0)
    return `; and from copies of their test files under other names, their lines moved (\`${copied.command ?? ''}\`)`;
  return `; from copies of their test files: not checked (${copied.notChecked ?? 'no command ran them'})`;
}

/** The fixed tests with their expected values changed: how many failed there, as they must, or why that was not checked. */
function expectationWords(changed: ExpectationObservation | undefined): string {
  if (!changed) return '';
  if (changed.ran > 0)
    return `; and, with the expected values they state changed (${changed.example ?? 'one per assertion'}), ${changed.ran === 1 ? 'it failed' : `all ${changed.ran} failed`}, as a test that can fail must (\`${changed.command ?? ''}\`)`;
  return `; with their expected values changed: not checked (${changed.notChecked ?? 'no command ran them'})`;
}
