// The words every rendering of a run's report shares (docs/design.md §1.11): the Markdown one (report.md,
// the pull request, the check run) and the terminal's. The renderers differ only in markup: what a
// status is called, how a test count, a failing test or a spend is said lives here once.
import type { AttemptRecord, RunResult, RunStatus, TestCounts, TestOutcome } from '../core/run-result.ts';

export const STATUS_TITLE: Record<RunStatus, string> = {
  tests_green: '✅ Verified fix',
  failed_to_green: '❌ Not fixed',
  escalated: '⚠️ Escalated to a human',
  nothing_to_fix: '➖ Nothing to fix',
  flaky: '🎲 Flaky tests: nothing to repair',
  error: '💥 Error',
};

/** A green run whose assessment asks for a person's eyes (docs/design.md §3.3): the tests pass, no more is claimed. */
export const REVIEW_TITLE = '🔍 Tests pass: review before merging';

export const COUNT_KEYS = ['passed', 'failed', 'skipped', 'total'] as const;

export const UNPARSED_NOTE = 'The test output could not be parsed into per-test results: the exit code alone decided.';

export function counts(c: TestCounts | null, key: (typeof COUNT_KEYS)[number]): string {
  if (!c) return '–';
  return c.parsed ? String(c[key]) : '?';
}

export function finalTitle(result: RunResult): string {
  return result.verification?.replayed ? 'Final (replayed)' : 'Final';
}

/** The first non-empty line of a text, cut to `max` characters. */
export function oneLine(text: string, max = 200): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim().length > 0)
      ?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** The tests still failing at the end: the last gated attempt's, else the baseline's. */
export function stillFailingTests(result: RunResult): TestOutcome[] {
  const last = [...result.attempts].reverse().find((a) => a.gate !== null);
  return last?.failingTests ?? result.baselineTests.filter((t) => t.status === 'failed');
}

export const NO_FAILING_DETAILS = 'No per-test details: see the attempt logs.';

/** "expected 2, got 3": the failed comparison, when the runner spelled it out (src/runners/). */
export function valuesWords(test: TestOutcome): string | null {
  if (test.expected === undefined || test.actual === undefined) return null;
  return `expected ${test.expected}, got ${test.actual}`;
}

export function attemptResult(a: AttemptRecord): string {
  if (a.findings.length > 0 && !a.gate?.passed) return `rejected: ${a.findings[0]?.kind}`;
  if (!a.gate) return a.continues ? 'continued in the next attempt' : 'no gate';
  if (a.gate.passed) return a.findings.length > 0 ? `green, not verified (${a.findings[0]?.kind})` : 'green';
  return a.gate.reason ?? 'failed';
}

export function money(usd: number): string {
  return usd === 0 ? '$0' : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function replayedWords(result: RunResult): string {
  const v = result.verification;
  if (!v?.replayed) return '**no**';
  if (v.gate?.passed) return 'yes, full suite green';
  // A suite that failed only on flaky tests holds (docs/design.md §3.2.8): said as it is.
  return v.passed && v.flaky ? 'yes, full suite green but for flaky tests' : 'yes, full suite **failing**';
}

export const SANDBOX_WARNING = '⚠️ no isolation beyond a scrubbed environment, timeouts and output caps';

/** Files changed and lines added and removed, and the engine that wrote the patch. */
export function patchWords(result: RunResult, engine: string): string {
  const added = result.filesChanged.reduce((n, c) => n + c.added, 0);
  const removed = result.filesChanged.reduce((n, c) => n + c.removed, 0);
  return `${result.filesChanged.length} file(s) changed, +${added} −${removed}, by engine ${engine}.`;
}

export const PATCH_CUT = '… (cut: the full patch is in the artifacts)';
