// The evidence rule on its own: per-test results that agree with the exit code, and every test that
// failed at the baseline seen passing.
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { EvidenceConflict, TestReport } from '../../src/core/test-report.ts';
import { emptyReport } from '../../src/core/test-report.ts';
import { judgeEvidence, type EvidenceBasis } from '../../src/verify/judge-evidence.ts';
import { reportOf, type Outcomes } from '../support/report-of.ts';

const report = (tests: Outcomes): TestReport => reportOf(tests);
const baseline = report([
  ['adds', 'failed'],
  ['subtracts', 'passed'],
]);
const green = (r: TestReport): GateResult => ({ passed: true, report: r, output: '', durationMs: 1 });
const red = (r: TestReport, exitCode = 1): GateResult => ({
  passed: false,
  reason: 'NON_ZERO_EXIT',
  exitCode,
  report: r,
  output: '',
  durationMs: 1,
});
const kinds = (baselineReport: TestReport, final: GateResult, mode: EvidenceBasis = 'per-test') =>
  judgeEvidence(baselineReport, final, mode).findings.map((f) => f.kind);
const witness = (failed: number, total: number) => ({
  runner: 'node' as const,
  passed: total - failed,
  failed,
  skipped: 0,
  total,
});

describe('the evidence rule', () => {
  it('accepts a green run whose tests say the same as its exit code', () => {
    expect(
      kinds(
        baseline,
        green(
          report([
            ['adds', 'passed'],
            ['subtracts', 'passed'],
          ]),
        ),
      ),
    ).toEqual([]);
  });

  it('refuses output that can no longer be read, or that shows no test', () => {
    expect(kinds(baseline, green(emptyReport()))).toEqual(['evidence_missing']);
    expect(kinds(baseline, green({ ...report([]), parsed: true }))).toContain('evidence_missing');
  });

  it('refuses an exit code that disagrees with the tests', () => {
    expect(
      kinds(
        baseline,
        green(
          report([
            ['adds', 'failed'],
            ['subtracts', 'passed'],
          ]),
        ),
      ),
    ).toContain('exit_code_disagrees');
    expect(
      kinds(
        baseline,
        red(
          report([
            ['adds', 'passed'],
            ['subtracts', 'passed'],
          ]),
          2,
        ),
      ),
    ).toContain('exit_code_disagrees');
  });

  it('refuses a run where a test that failed at the baseline is not seen passing', () => {
    expect(
      kinds(
        baseline,
        green(
          report([
            ['subtracts', 'passed'],
            ['other', 'passed'],
          ]),
        ),
      ),
    ).toContain('evidence_missing');
  });

  it('refuses a suite never read per test, unless the operator opted into the exit code alone, and says which basis decided', () => {
    expect(kinds(emptyReport(), green(emptyReport()))).toEqual(['evidence_missing']);
    expect(judgeEvidence(emptyReport(), green(emptyReport()), 'per-test').findings[0]?.message).toContain(
      'test.evidence: exit-code',
    );
    expect(judgeEvidence(emptyReport(), green(emptyReport()), 'exit-code')).toEqual({ findings: [], basis: 'exit-code' });
    // A suite that is read per test is judged per test whatever the setting.
    expect(
      judgeEvidence(
        baseline,
        green(
          report([
            ['adds', 'passed'],
            ['subtracts', 'passed'],
          ]),
        ),
        'exit-code',
      ).basis,
    ).toBe('per-test');
  });

  it("requires the runner's own report wherever the baseline had one, agreeing with the exit code and counting every test", () => {
    const witnessed = { ...baseline, witness: witness(1, 2) };
    const fixed = report([
      ['adds', 'passed'],
      ['subtracts', 'passed'],
    ]);
    expect(kinds(witnessed, green({ ...fixed, witness: witness(0, 2) }))).toEqual([]);
    // A fake summary printed by something other than the runner: no report was written.
    expect(kinds(witnessed, green({ ...fixed, witness: null }))).toEqual(['evidence_missing']);
    expect(kinds(witnessed, green({ ...fixed, witness: witness(1, 2) }))).toEqual(['exit_code_disagrees']);
    expect(kinds(witnessed, green({ ...fixed, witness: witness(0, 1) }))).toEqual(['evidence_missing']);
    // Not asked at the baseline (an operator's own report file): nothing to hold the replay to.
    expect(kinds(baseline, green({ ...fixed, witness: null }))).toEqual([]);
  });

  it('names a conflict between the view from inside and the runner’s reports that only the replay has', () => {
    const fixed = report([
      ['adds', 'passed'],
      ['subtracts', 'passed'],
    ]);
    const forged = {
      subject: 'status:adds:passed:failed',
      message: "the runner's output says `adds` passed; inside its test process it failed",
    };
    const quirk = {
      subject: 'counts:output',
      message:
        "the runner's output counts 3 passed, 0 failed, 0 skipped; inside the test processes 2 passed, 0 failed, 0 skipped ended",
    };
    const inside = (conflicts: EvidenceConflict[]): TestReport => ({ ...fixed, view: 'inside', conflicts });
    const judged = judgeEvidence({ ...baseline, view: 'inside', conflicts: [quirk] }, green(inside([quirk, forged])), 'per-test');
    expect(judged.findings).toEqual([
      {
        kind: 'evidence_conflict',
        message:
          "the runner's output says `adds` passed; inside its test process it failed: the runner's report and what ran disagree",
      },
    ]);
    // The same disagreement at the baseline is the runner's own (whatever the counts now), not the patch's.
    expect(
      kinds({ ...baseline, conflicts: [forged, { ...quirk, message: 'other numbers' }] }, green(inside([quirk, forged]))),
    ).toEqual([]);
  });

  it('never shows the baseline’s tests accounted for by counts that name none, and says so', () => {
    const counted: TestReport = { ...report([]), passed: 2, total: 2, view: 'counts' };
    const judged = judgeEvidence(baseline, green(counted), 'per-test');
    expect(judged.findings.map((f) => f.kind)).toEqual(['evidence_missing']);
    expect(judged.findings[0]?.message).toMatch(/counted \(2\) but not named.*which tests pass is unknown/);
    // Counts that name none, even at both ends.
    expect(kinds({ ...counted, failed: 1, passed: 1 }, green(counted))).toEqual(['evidence_missing']);
    // The operator who accepted the exit code alone gets counts that agree with it, labelled as such.
    expect(judgeEvidence(baseline, green(counted), 'exit-code')).toEqual({ findings: [], basis: 'exit-code' });
    expect(kinds(baseline, green({ ...counted, failed: 1, total: 3 }), 'exit-code')).toEqual(['exit_code_disagrees']);
  });
});
