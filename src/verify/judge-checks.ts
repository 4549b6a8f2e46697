// A check run's checks on the pristine replay (docs/design.md §3.2): each must exit 0 there with the
// patch, where the setup and the tests ran; and the tests beside them guard against regressions. The
// suite need not be green where it was not at the baseline, but every test that did not fail then
// must not fail now, and that can only be told when the baseline's output was read per test.
import { checkSummary, diagnosticText, type CheckRun, type CheckSummary } from '../core/check-result.ts';
import type { Finding } from '../core/findings.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { TestReport } from '../core/test-report.ts';
import { suiteRegressions } from '../gate/check-gate.ts';

export interface ChecksJudgement {
  findings: Finding[];
  checks: CheckSummary[];
  /** The replay's suite failed only as it did at the baseline: its failure is no finding. */
  suiteMayFail: boolean;
}

function failedCheck(run: CheckRun): Finding {
  const ending = run.timedOut ? 'timed out' : `exit ${run.exitCode ?? 'killed'}`;
  const shown = run.diagnostics.slice(0, 3).map(diagnosticText);
  const more = run.diagnostics.length > shown.length ? `, and ${run.diagnostics.length - shown.length} more` : '';
  const what = run.diagnostics.length > 0 ? `: ${shown.join('; ')}${more}` : '';
  return {
    kind: 'check_failed',
    message: `the check \`${run.command}\` still fails on the pristine checkout with the patch (${ending})${what}`,
  };
}

export function judgeChecks(
  runs: readonly CheckRun[],
  suite: GateResult,
  baseline: TestReport,
  baselinePassed: boolean,
): ChecksJudgement {
  const findings = runs.filter((r) => !r.passed).map(failedCheck);
  let suiteMayFail = false;
  if (!suite.passed && !baselinePassed) {
    if (!baseline.parsed)
      findings.push({
        kind: 'evidence_missing',
        message:
          "the tests failed at the baseline and their output could not be read per test: whether the patch broke one cannot be told (set `test.report`, or fix the tests' failure first)",
      });
    else {
      const baselineGate: GateResult = { passed: false, reason: 'NON_ZERO_EXIT', report: baseline, output: '', durationMs: 0 };
      const regressed = suiteRegressions(suite, baselineGate, '');
      suiteMayFail = regressed.length === 0;
      // A test that passed at the baseline and fails now is the replay's own `pass_to_fail` already.
      const passedBefore = new Set(baseline.tests.filter((t) => t.status === 'passed').map((t) => t.id));
      for (const test of regressed.filter((t) => !passedBefore.has(t.id)))
        findings.push({
          kind: 'pass_to_fail',
          message: test.id.startsWith('tests: ')
            ? `the tests ${test.message?.split('\n')[0] ?? 'regressed'}`
            : `\`${test.id}\` did not fail at the baseline and fails now`,
        });
    }
  }
  return { findings, checks: runs.map(checkSummary), suiteMayFail };
}
