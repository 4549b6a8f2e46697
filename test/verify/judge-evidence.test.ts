// The evidence rule on its own: per-test results that agree with the exit code, and every test that
// failed at the baseline seen passing.
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { TestCaseResult, TestReport } from '../../src/core/test-report.ts';
import { emptyReport } from '../../src/core/test-report.ts';
import { evidenceFindings } from '../../src/verify/judge-evidence.ts';

const report = (tests: Array<[string, TestCaseResult['status']]>): TestReport => {
  const cases = tests.map(([id, status]) => ({ id, name: id, status }));
  const count = (s: string) => cases.filter((t) => t.status === s).length;
  return { format: 'node-test', parsed: true, passed: count('passed'), failed: count('failed'), skipped: count('skipped'), total: cases.length, tests: cases };
};
const baseline = report([['adds', 'failed'], ['subtracts', 'passed']]);
const green = (r: TestReport): GateResult => ({ passed: true, report: r, output: '', durationMs: 1 });
const red = (r: TestReport, exitCode = 1): GateResult => ({ passed: false, reason: 'NON_ZERO_EXIT', exitCode, report: r, output: '', durationMs: 1 });
const kinds = (baselineReport: TestReport, final: GateResult) => evidenceFindings(baselineReport, final).map((f) => f.kind);

describe('the evidence rule', () => {
  it('accepts a green run whose tests say the same as its exit code', () => {
    expect(kinds(baseline, green(report([['adds', 'passed'], ['subtracts', 'passed']])))).toEqual([]);
  });

  it('refuses output that can no longer be read, or that shows no test', () => {
    expect(kinds(baseline, green(emptyReport()))).toEqual(['evidence_missing']);
    expect(kinds(baseline, green({ ...report([]), parsed: true }))).toContain('evidence_missing');
  });

  it('refuses an exit code that disagrees with the tests', () => {
    expect(kinds(baseline, green(report([['adds', 'failed'], ['subtracts', 'passed']])))).toContain('exit_code_disagrees');
    expect(kinds(baseline, red(report([['adds', 'passed'], ['subtracts', 'passed']]), 2))).toContain('exit_code_disagrees');
  });

  it('refuses a run where a test that failed at the baseline is not seen passing', () => {
    expect(kinds(baseline, green(report([['subtracts', 'passed'], ['other', 'passed']])))).toContain('evidence_missing');
  });

  it('judges a suite never read per test by its exit code alone, as before', () => {
    expect(kinds(emptyReport(), green(emptyReport()))).toEqual([]);
  });
});
