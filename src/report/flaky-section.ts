// The flaky tests a run found (docs/design.md §3.2.8), in the report (Markdown and terminal) and the
// headline: each named with its counts, and where it was seen failing; never a target, never counted.
import { flakyCountWords, type FlakyTest } from '../core/flaky-test.ts';
import type { RunResult } from '../core/run-result.ts';

/** At most this many flaky tests are named in a headline; the report names them all. */
const MAX_IN_HEADLINE = 3;

const WHERE: Record<FlakyTest['seen'], string> = {
  baseline: 'failing at the baseline, on the pristine code',
  attempt: "failing in an attempt's gate after passing at the baseline",
  replay: 'failing in the replay after passing at the baseline',
};

/** "`flaky` (failed 2 of 4 runs)", for up to a few tests, and how many more. */
export function flakyNames(tests: FlakyTest[], max = MAX_IN_HEADLINE): string {
  const named = tests.slice(0, max).map((t) => `\`${t.id}\` (${flakyCountWords(t)})`);
  const more = tests.length > max ? `, and ${tests.length - max} more` : '';
  return `${named.join(', ')}${more}`;
}

/** The headline of a run whose only failures were flaky. */
export function flakyHeadline(result: RunResult): string {
  const tests = result.flakiness?.tests ?? [];
  const which =
    tests.length === 1
      ? `the only failing test is flaky: ${flakyNames(tests)}`
      : `the ${tests.length} failing tests are all flaky: ${flakyNames(tests)}`;
  return `Flaky, nothing to repair: ${which}, on the same code. fixloop measures flakiness and does not repair it: no patch.`;
}

/** "Flaky, not counted: …" after a green or failed run's headline; '' when the run found none. */
export function flakyNote(result: RunResult): string {
  const tests = result.flakiness?.tests ?? [];
  return tests.length === 0 ? '' : ` Flaky, not counted: ${flakyNames(tests)}.`;
}

/** The report's section: each flaky test with its counts and where it failed, and what the check cost. */
export function flakySection(result: RunResult): string[] {
  const flakiness = result.flakiness;
  if (!flakiness) return [];
  const lines = ['### Flaky tests'];
  if (flakiness.tests.length > 0) {
    lines.push(
      'Seen failing and passing on the same code: no engine was asked to change them, and their outcome counted neither as a fix nor as a regression.',
      '',
      ...flakiness.tests.map((t) => `- \`${t.id}\`: ${flakyCountWords(t)}, ${WHERE[t.seen]}`),
    );
  } else if (flakiness.notMeasured) {
    lines.push(`Not measured: ${flakiness.notMeasured}.`);
  } else if (flakiness.suiteRuns) {
    lines.push(`None: the suite passed again in each of ${runsWords(flakiness.suiteRuns.runs - 1)}.`);
  } else {
    lines.push(`None: every failing test failed again in each of ${runsWords(flakiness.reruns)}.`);
  }
  if (flakiness.command && flakiness.suiteRuns)
    lines.push(
      '',
      `_The baseline passed; the whole suite ran ${timesWords(flakiness.suiteRuns.runs - 1)} more (\`${flakiness.command}\`, ${(flakiness.durationMs / 1000).toFixed(1)} s; \`loop.flakyReruns\`) and failed in ${flakiness.suiteRuns.failed} of ${flakiness.suiteRuns.runs} runs._`,
    );
  else if (flakiness.command)
    lines.push(
      '',
      `_The baseline's ${flakiness.checked} failing test${flakiness.checked === 1 ? '' : 's'} ran ${flakiness.reruns} more time${flakiness.reruns === 1 ? '' : 's'} (\`${flakiness.command}\`, ${(flakiness.durationMs / 1000).toFixed(1)} s; \`loop.flakyReruns\`)._`,
    );
  return lines;
}

function runsWords(n: number): string {
  return `${n} more run${n === 1 ? '' : 's'}`;
}

function timesWords(n: number): string {
  return n === 1 ? 'once' : `${n} times`;
}
