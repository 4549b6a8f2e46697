// The judge's second look that no guard makes (docs/design.md §3.2.9): the assessment made the calls
// the patch changed again in a plain process, without the test runner and without the tests
// (src/assess/outside-look.ts). A call where the original gives one result in both places, and the
// patched program gives its fixed result only under the runner, is a fix the tests see and a program
// never would: the patch looks for the runner, or reads the tests. That is no fix, whatever the
// tests say, so the run is not green; the assessment it came from stays in the result, with each call.
import type { Finding } from '../core/findings.ts';
import type { RunResult } from '../core/run-result.ts';
import { runnerOnlyReason } from '../assess/assessment-level.ts';

export function withOutsideVerdict(result: RunResult): RunResult {
  const look = result.assessment?.outsideLook;
  const first = look?.runnerOnly[0];
  if (result.status !== 'tests_green' || !result.verification || !look || !first) return result;
  const finding: Finding = { kind: 'runner_only', message: runnerOnlyReason(first, look.count) };
  return {
    ...result,
    status: 'failed_to_green',
    stopReason: 'verification_failed',
    verification: { ...result.verification, passed: false, findings: [...result.verification.findings, finding] },
  };
}
