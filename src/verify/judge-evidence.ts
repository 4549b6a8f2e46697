// Green needs per-test evidence that agrees with the exit code (DESIGN.md §3.2.1): the replay's
// report must say which tests ran; a suite that fixloop could read at the baseline and cannot read
// now, ran no test, lets a failure through with exit 0 (`|| true`), fails with no failing test, or
// no longer shows a test that was failing passing, is not a fix, whatever the exit code says.
import type { Finding } from '../core/findings.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { TestReport } from '../core/test-report.ts';
import { compareTests } from './compare-tests.ts';

export function evidenceFindings(baseline: TestReport, final: GateResult): Finding[] {
  const report = final.report;
  if (!report.parsed) {
    // A suite never read per test (both sides unparsed) is judged by its exit code alone, as before;
    // a suite that was read at the baseline must still be read now.
    return baseline.parsed ? [{ kind: 'evidence_missing', message: 'the replay\'s output could not be read per test, although the baseline\'s could: which tests ran is unknown' }] : [];
  }
  const findings: Finding[] = [];
  if (report.total === 0) findings.push({ kind: 'evidence_missing', message: 'the replay ran no test' });
  if (final.passed && report.failed > 0) findings.push({ kind: 'exit_code_disagrees', message: `the test command exited 0 although ${report.failed} test(s) failed` });
  if (!final.passed && final.reason === 'NON_ZERO_EXIT' && report.failed === 0) findings.push({ kind: 'exit_code_disagrees', message: `the test command failed (exit ${final.exitCode ?? '?'}) with no failing test: an error outside the tests` });
  if (baseline.parsed) {
    const comparison = compareTests(baseline, report);
    const stillFailing = new Set(comparison.stillFailing);
    for (const test of baseline.tests.filter((t) => t.status === 'failed')) {
      if (!comparison.failToPass.includes(test.id) && !stillFailing.has(test.id)) findings.push({ kind: 'evidence_missing', message: `\`${test.id}\` failed at the baseline and is not seen passing in the replay` });
    }
  }
  return findings;
}
