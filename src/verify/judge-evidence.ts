// Green needs per-test evidence that agrees with the exit code (docs/design.md §3.2.1): the replay's
// report must say which tests ran; a suite whose output cannot be read per test, ran no test, lets a
// failure through with exit 0 (`|| true`), fails with no failing test, or no longer shows a test that
// was failing passing, is not a fix, whatever the exit code says. The runner's own machine report
// (the witness) must agree too: it must be written wherever it was at the baseline, count no failure
// in a passing run, and count no fewer tests than at the baseline. And what fixloop's runtime guard
// saw inside the test processes must hold (guard-findings.ts): where its records name the tests (the
// report's view is `inside`, src/gate/per-test-view.ts), the output and the machine report are
// cross-checks, and a disagreement the baseline did not have is `evidence_conflict`. Counts with no
// test named (`counts`) never show the baseline's tests each accounted for.
import type { Finding } from '../core/findings.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { EvidenceKind } from '../core/repo-config.ts';
import { viewOf, type TestReport } from '../core/test-report.ts';
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
  const findings = [
    ...witnessFindings(baseline, final),
    ...guardFindings(baseline, final),
    ...conflictFindings(baseline, final.report),
  ];
  const report = final.report;
  const view = viewOf(report);
  if (view === 'none') {
    // Only an operator's explicit setting lets the exit code alone decide, and the run says so.
    if (mode === 'exit-code') return { findings, basis: 'exit-code' };
    const why =
      viewOf(baseline) !== 'none'
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
  if (view === 'counts') {
    // The counts hold, but no test is named: which of the baseline's tests pass is not seen.
    if (mode === 'exit-code') return { findings, basis: 'exit-code' };
    findings.push({
      kind: 'evidence_missing',
      message: `the replay's tests were counted (${report.total}) but not named, neither by the runner's output nor from inside its test processes: which tests pass is unknown (\`test.evidence: exit-code\` accepts counts and the exit code alone)`,
    });
    return { findings, basis: 'per-test' };
  }
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

/** At most this many conflicts are named (each is one test or one count; the first say enough). */
const MAX_CONFLICTS = 10;

/**
 * What the runner's output and machine report say against the tests seen inside the replay's test
 * processes, where the baseline's run did not say the same (a runner's own quirk is not the patch's).
 */
function conflictFindings(baseline: TestReport, report: TestReport): Finding[] {
  const known = new Set((baseline.conflicts ?? []).map((c) => c.subject));
  return (report.conflicts ?? [])
    .filter((c) => !known.has(c.subject))
    .slice(0, MAX_CONFLICTS)
    .map((c) => ({ kind: 'evidence_conflict', message: `${c.message}: the runner's report and what ran disagree` }));
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
