// No test weakened: the final run has no fewer tests than the baseline, none newly skipped, none gone.
import type { TestReport } from '../core/test-report.ts';
import type { Finding } from '../core/findings.ts';
import { compareTests } from './compare-tests.ts';

export function checkTestIntegrity(baseline: TestReport, final: TestReport): Finding[] {
  // Without per-test results on both sides, only the exit code is known: nothing to compare.
  if (!baseline.parsed || !final.parsed) return [];
  const findings: Finding[] = [];
  if (final.total < baseline.total) {
    findings.push({
      kind: 'test_count_lower',
      message: `the suite has ${final.total} tests, fewer than the ${baseline.total} of the baseline`,
    });
  }
  const comparison = compareTests(baseline, final);
  for (const id of comparison.newlySkipped)
    findings.push({ kind: 'test_newly_skipped', message: `\`${id}\` is skipped now and was not before` });
  for (const id of comparison.removed) findings.push({ kind: 'test_removed', message: `\`${id}\` no longer runs` });
  return findings;
}
