// Green needs per-test evidence that agrees with the exit code (docs/design.md §3.2.1): the replay's
// report must say which tests ran; a suite whose output cannot be read per test, ran no test, lets a
// failure through with exit 0 (`|| true`), fails with no failing test, or no longer shows a test that
// was failing passing, is not a fix, whatever the exit code says. The runner's own machine report
// (the witness) must agree too: it must be written wherever it was at the baseline, count no failure
// in a passing run, and count no fewer tests than at the baseline. And what fixloop's runtime guard
// saw inside the test processes must hold (guard-findings.ts).
import type { Finding } from '../core/findings.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { EvidenceKind } from '../core/repo-config.ts';
import type { TestReport } from '../core/test-report.ts';
import { compareTests } from './compare-tests.ts';
import { guardFindings } from './guard-findings.ts';

/** What made the verdict: per-test results, or the exit code alone (`test.evidence: exit-code`). */
export type EvidenceBasis = EvidenceKind;

export interface EvidenceJudgement {
  findings: Finding[];
  basis: EvidenceBasis;
}

export function judgeEvidence(baseline: TestReport, final: GateResult, mode: EvidenceBasis): EvidenceJudgement {
  // What the runtime guard saw decides even where the exit code alone would (guard-findings.ts).
  const findings = [...witnessFindings(baseline, final), ...guardFindings(baseline, final)];
  const report = final.report;
  if (!report.parsed) {
    // Only an operator's explicit setting lets the exit code alone decide, and the run says so.
    if (mode === 'exit-code') return { findings, basis: 'exit-code' };
    const why = baseline.parsed
      ? "although the baseline's could"
      : 'set `test.report` to a JUnit file the command writes, or `test.evidence: exit-code` to accept the exit code alone';
    findings.push({
      kind: 'evidence_missing',
      message: `the replay's output could not be read per test (${why}): which tests ran is unknown`,
    });
    return { findings, basis: 'per-test' };
  }
  if (report.total === 0) findings.push({ kind: 'evidence_missing', message: 'the replay ran no test' });
  if (final.passed && report.failed > 0)
    findings.push({ kind: 'exit_code_disagrees', message: `the test command exited 0 although ${report.failed} test(s) failed` });
  if (!final.passed && final.reason === 'NON_ZERO_EXIT' && report.failed === 0)
    findings.push({
      kind: 'exit_code_disagrees',
      message: `the test command failed (exit ${final.exitCode ?? '?'}) with no failing test: an error outside the tests`,
    });
  if (baseline.parsed) {
    const comparison = compareTests(baseline, report);
    const stillFailing = new Set(comparison.stillFailing);
    for (const test of baseline.tests.filter((t) => t.status === 'failed')) {
      if (!comparison.failToPass.includes(test.id) && !stillFailing.has(test.id))
        findings.push({
          kind: 'evidence_missing',
          message: `\`${test.id}\` failed at the baseline and is not seen passing in the replay`,
        });
    }
  }
  return { findings, basis: 'per-test' };
}

/** The runner's machine report against the output and the baseline's. */
function witnessFindings(baseline: TestReport, final: GateResult): Finding[] {
  const before = baseline.witness;
  const now = final.report.witness;
  if (!before) return [];
  if (!now)
    return [
      {
        kind: 'evidence_missing',
        message: `the runner's own report (${before.runner}) was not written in the replay, although it was at the baseline: the tests may not have run`,
      },
    ];
  const findings: Finding[] = [];
  if (final.passed && now.failed > 0)
    findings.push({
      kind: 'exit_code_disagrees',
      message: `the runner's own report (${now.runner}) counts ${now.failed} failed test(s) in a run that exited 0`,
    });
  if (now.total < before.total)
    findings.push({
      kind: 'evidence_missing',
      message: `the runner's own report (${now.runner}) counts ${now.total} test(s), fewer than the baseline's ${before.total}`,
    });
  return findings;
}
