// The headline of a check run (`--check`, `checks:`): what the checks say, not the tests, which only
// guarded against regressions.
import type { RunResult } from '../core/run-result.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function commands(result: RunResult): string {
  return (result.checks?.commands ?? []).map((c) => `\`${c}\``).join(', ');
}

/** A check run's headline for a verified fix or nothing to fix; null for any other run. */
export function checkHeadline(result: RunResult, attempts: string): string | null {
  if (!result.checks) return null;
  const baseline = result.checks.baseline.reduce((sum, c) => sum + (c.passed ? 0 : Math.max(1, c.diagnostics)), 0);
  const one = result.checks.commands.length === 1;
  const checks = one ? 'the check' : 'the checks';
  const pass = one ? 'passes' : 'pass';
  if (result.status === 'nothing_to_fix') return `Nothing to fix: ${checks} ${commands(result)} already ${pass}.`;
  if (result.status !== 'tests_green') return null;
  const tests = result.final?.parsed ? `, ${result.final.passed}/${result.final.total} tests passing` : '';
  return `Verified fix after ${attempts}: ${checks} ${commands(result)} now ${pass} (${plural(baseline, 'diagnostic')} at the baseline); replayed on a pristine checkout${tests}, no test regressed, no check silenced.`;
}

/** What a check run that did not end green leaves, in words. */
export function checksLeft(result: RunResult): string {
  const left = result.final?.failed ?? 0;
  return `${plural(left, 'diagnostic')} or regressed test${left === 1 ? '' : 's'} left`;
}
