// The judge's reading of the runtime guard's records (docs/design.md §3.2.7): events the baseline did not
// have, missing or incomplete records, counts against the runner's reports; and the level without a guard.
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { GuardRecord, GuardTestCase } from '../../src/core/guard-record.ts';
import { perTestView } from '../../src/gate/per-test-view.ts';
import { judgeEvidence } from '../../src/verify/judge-evidence.ts';
import type { TestReport } from '../../src/core/test-report.ts';
import { decideLevel, unguardedReason, unnamedFailingReason, withReason } from '../../src/assess/assessment-level.ts';
import { guardFindings, runtimeGuardStatus } from '../../src/verify/guard-findings.ts';

const record = (over: Partial<GuardRecord> = {}): GuardRecord => ({
  runner: 'pytest',
  pid: 1,
  complete: true,
  tests: { passed: 3, failed: 0, skipped: 0 },
  events: [],
  ...over,
});
const report = (records: GuardRecord[] | null, passed = 3, failed = 0): TestReport => ({
  format: 'pytest',
  parsed: true,
  passed,
  failed,
  skipped: 0,
  total: passed + failed,
  tests: [],
  guard: records ? { runner: 'pytest', records } : null,
});
const gate = (r: TestReport): GateResult => ({ passed: true, report: r, output: '', durationMs: 1 });
const EVENT = {
  kind: 'dynamic_code' as const,
  file: 'gen.py',
  line: 3,
  detail: 'ran `t.txt`, a file that is not Python code, as code',
};

describe('the runtime guard’s records, judged', () => {
  it('holds a complete record with no event whose counts agree', () => {
    expect(guardFindings(report([record()]), gate(report([record()])))).toEqual([]);
  });

  it('names a test reported passed whose body the guard saw raise or never saw end, not one the baseline had so, nor a failed test whose body returned', () => {
    const test = (titles: string[], over: Partial<GuardTestCase>): GuardTestCase => ({
      file: 't.py',
      titles,
      outcome: 'passed',
      ...over,
    });
    const now = report([
      record({
        cases: [
          test(['test_adds'], { body: 'raised', raised: 'AssertionError: assert 3 == 2\nmore' }),
          test(['test_bypassed'], { body: 'unseen' }),
          test(['test_fine'], { body: 'returned' }),
          test(['test_timed_out'], { outcome: 'failed', body: 'returned' }),
          test(['test_unwrapped'], {}),
          test(['test_own_way'], { body: 'unseen' }),
          test(['test_fixed_own_way'], { body: 'unseen' }),
        ],
      }),
    ]);
    // A test whose body the wrapper did not see on the pristine code, passed or failed there (a plugin that calls it by its own route).
    const before = report([
      record({
        cases: [
          test(['test_own_way'], { body: 'unseen' }),
          test(['test_fixed_own_way'], { outcome: 'failed', body: 'unseen' }),
          test(['test_bypassed'], { outcome: 'failed', body: 'raised', raised: 'AssertionError' }),
        ],
      }),
    ]);
    expect(guardFindings(before, gate(now))).toEqual([
      {
        kind: 'runtime_tampering',
        path: 't.py',
        message:
          "pytest reported `t.py > test_adds` passed, but fixloop's runtime guard saw its body raise `AssertionError: assert 3 == 2`: the outcome was rewritten inside the test process",
      },
      {
        kind: 'runtime_tampering',
        path: 't.py',
        message:
          "pytest reported `t.py > test_bypassed` passed, but fixloop's runtime guard never saw its body end (its wrapper of the test function was bypassed or replaced): the outcome was rewritten inside the test process",
      },
    ]);
  });

  it('names an event the baseline did not have, and not one it had (whatever its line)', () => {
    const now = report([
      record({
        events: [
          { ...EVENT, line: 9 },
          { kind: 'exit', file: 'calc.py', line: 4, detail: 'replaced its own process (`os.exec*`)' },
        ],
      }),
    ]);
    expect(guardFindings(report([record({ events: [EVENT] })]), gate(now))).toEqual([
      {
        kind: 'runtime_tampering',
        path: 'calc.py',
        message:
          "`calc.py:4` replaced its own process (`os.exec*`) (seen by fixloop's runtime guard inside pytest; event `exit`)",
      },
    ]);
  });

  it('calls no record where the baseline had one, and an incomplete record, missing evidence', () => {
    expect(guardFindings(report([record()]), gate(report([]))).map((f) => f.kind)).toEqual(['guard_record_missing']);
    expect(
      guardFindings(report([record()]), gate(report([record({ complete: false, tests: null })]))).map((f) => f.kind),
    ).toEqual(['guard_record_missing']);
    // A command whose processes never loaded it at the baseline either: the report says so instead.
    expect(guardFindings(report([]), gate(report([])))).toEqual([]);
  });

  it('lets the guard’s count decide against the output and the JUnit report', () => {
    const forged = {
      ...report([record({ tests: { passed: 2, failed: 1, skipped: 0 } })]),
      witness: { runner: 'pytest', passed: 3, failed: 0, skipped: 0, total: 3 },
    };
    expect(guardFindings(report([record()]), gate(forged)).map((f) => f.message)).toEqual([
      "pytest's output says 3 passed and 0 failed, but fixloop's runtime guard inside it saw 2 pass and 1 fail: the report is not what ran",
      "pytest's own JUnit report says 3 passed and 0 failed, but fixloop's runtime guard inside it saw 2 pass and 1 fail: the report is not what ran",
    ]);
    // Two pytest processes (`pytest a && pytest b`): only fewer failures than they saw in all is a mismatch.
    const two = report(
      [record({ tests: { passed: 1, failed: 0, skipped: 0 } }), record({ tests: { passed: 2, failed: 0, skipped: 0 } })],
      2,
      0,
    );
    expect(guardFindings(report([record()]), gate(two))).toEqual([]);
  });

  it('leaves the counts of a view from inside to its cross-checks, which judge a forged count only the replay has', () => {
    // The guard saw one test fail; the output, forged, says all passed.
    const seen = record({
      tests: { passed: 1, failed: 1, skipped: 0 },
      cases: [
        { file: 't.py', titles: ['test_a'], outcome: 'passed' },
        { file: 't.py', titles: ['test_b'], outcome: 'failed' },
      ],
    });
    const forged = { ...report([seen], 2, 0), tests: [] };
    const testCase = (c: GuardTestCase) => ({
      id: `t.py::${c.titles.join('::')}`,
      name: c.titles.at(-1) ?? '',
      status: c.outcome,
    });
    const inside = perTestView(forged, testCase);
    expect(inside.view).toBe('inside');
    // Not counted twice: the runner's units may not be the guard's (pytest's JUnit folds subtests).
    expect(guardFindings(report([record()]), gate(inside))).toEqual([]);
    const honestBaseline = perTestView({ ...report([seen], 1, 1), tests: [] }, testCase);
    expect(judgeEvidence(honestBaseline, gate(inside), 'per-test').findings.map((f) => f.kind)).toContain('evidence_conflict');
    // A view from the output keeps the guard's own count check.
    const outputView = { ...report([seen], 2, 0), view: 'output' as const };
    expect(guardFindings(report([record()]), gate(outputView)).map((f) => f.kind)).toEqual(['runtime_tampering']);
  });
});

describe('the level without a runtime guard', () => {
  const budget = { usedMs: 0, limitMs: 0, exhausted: false };

  it('is review, unless the operator accepted less evidence', () => {
    const none = runtimeGuardStatus(report(null), report(null), 'per-test');
    expect(none).toEqual({ runner: null, available: false, processes: 0, accepted: false });
    const reason = unguardedReason(none);
    expect(reason).toMatch(/^runtime guard: not available for this runner/);
    const verified = decideLevel({ counts: { suiteCalls: 3, generatedInputs: 9 }, budget });
    expect(verified.level).toBe('verified');
    expect(withReason(verified, reason ?? '')).toMatchObject({ level: 'review', reason });
    expect(unguardedReason(runtimeGuardStatus(report(null), report(null), 'exit-code'))).toBeNull();
    expect(unguardedReason(runtimeGuardStatus(report([record()]), report([record()]), 'per-test'))).toBeNull();
  });

  it('is review where which tests failed at the baseline is unknown, and says why', () => {
    expect(unnamedFailingReason('counts')).toBe(
      "which tests failed is unknown (the baseline's tests were counted but not named, neither by the runner's output nor from inside its test processes), so the failing tests' own calls cannot be told apart from the rest",
    );
    expect(unnamedFailingReason('none')).toMatch(
      /^which tests failed is unknown \(the baseline's output could not be read per test\)/,
    );
    expect(unnamedFailingReason('inside')).toBeNull();
    expect(unnamedFailingReason('output')).toBeNull();
    expect(unnamedFailingReason(undefined)).toBeNull();
  });
});
