// A check run's gate: the checks' diagnostics are its failing tests, the suite only guards (every test
// that did not fail at the baseline still passes), and the judge's verdict on the replay's checks.
import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../src/core/check-result.ts';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import { checkGate } from '../../src/gate/check-gate.ts';
import { judgeChecks } from '../../src/verify/judge-checks.ts';

function suite(tests: [string, TestCaseResult['status']][], parsed = true): GateResult {
  const list = tests.map(([id, status]) => ({ id, name: id, status }));
  const n = (s: string) => list.filter((t) => t.status === s).length;
  const report = {
    format: 'node-test',
    parsed,
    passed: n('passed'),
    failed: n('failed'),
    skipped: 0,
    total: list.length,
    tests: list,
  };
  return n('failed') > 0 || !parsed
    ? { passed: false, reason: 'NON_ZERO_EXIT', exitCode: 1, report, output: 'tests output', durationMs: 10 }
    : { passed: true, report, output: 'tests output', durationMs: 10 };
}

const lint: CheckRun = {
  command: 'npx eslint src',
  tool: 'eslint',
  passed: false,
  exitCode: 1,
  diagnostics: [
    {
      tool: 'eslint',
      file: 'src/a.js',
      line: 1,
      column: 7,
      rule: 'no-unused-vars',
      message: "'unused' is assigned a value but never used",
    },
    { tool: 'eslint', file: 'src/b.js', line: 4, column: 1, rule: 'semi', message: 'Missing semicolon' },
  ],
  parsed: true,
  output: 'eslint output',
  durationMs: 5,
};
const clean: CheckRun = {
  ...lint,
  passed: false,
  diagnostics: [],
  parsed: false,
  exitCode: 2,
  output: 'Oops! Something went wrong\n',
};
const { exitCode: _exit, ...rest } = lint;
const passing: CheckRun = { ...rest, passed: true, diagnostics: [] };

describe('checkGate', () => {
  const green = suite([['adds', 'passed']]);

  it('makes each diagnostic a failing test the engines read: file, its line in the stack, the rule and message', () => {
    const gate = checkGate({ checks: [lint], suite: green, baseline: green, suiteCommand: 'node --test' });
    expect(gate.passed).toBe(false);
    expect(gate).toMatchObject({ reason: 'NON_ZERO_EXIT', exitCode: 1 });
    expect(gate.report).toMatchObject({ format: 'checks', parsed: true, failed: 2, passed: 1, total: 3 });
    expect(gate.report.tests[0]).toEqual({
      id: 'eslint: src/a.js:1:7 no-unused-vars',
      name: 'no-unused-vars',
      file: 'src/a.js',
      status: 'failed',
      message: "src/a.js:1:7 'unused' is assigned a value but never used (no-unused-vars)",
      stack: '    at src/a.js:1:7',
    });
    expect(gate.output).toContain('==== check: npx eslint src ====\neslint output');
    expect(gate.checks).toEqual([lint]);
  });

  it('passes when every check passes and the suite fails only as it did at the baseline', () => {
    const red = suite([
      ['adds', 'passed'],
      ['broken', 'failed'],
    ]);
    const gate = checkGate({ checks: [passing], suite: red, baseline: red, suiteCommand: 'node --test' });
    expect(gate.passed).toBe(true);
    expect(gate.report.failed).toBe(0);
  });

  it("counts a test that regressed as a failing item, and a green suite's unread failure as one", () => {
    const red = suite([
      ['adds', 'failed'],
      ['subtracts', 'passed'],
    ]);
    const regressed = checkGate({ checks: [passing], suite: red, baseline: green, suiteCommand: 'node --test' });
    expect(regressed.passed).toBe(false);
    expect(regressed.report.tests.filter((t) => t.status === 'failed').map((t) => t.id)).toEqual(['adds']);
    const unread = checkGate({ checks: [passing], suite: suite([], false), baseline: green, suiteCommand: 'node --test' });
    expect(unread.report.tests.map((t) => t.id)).toEqual(['tests: node --test']);
  });

  it('makes a failing check whose output names no diagnostic one failing item, its output the message', () => {
    const gate = checkGate({ checks: [clean], suite: green, baseline: green, suiteCommand: 'node --test' });
    expect(gate.report.tests[0]).toMatchObject({
      id: 'check: npx eslint src',
      status: 'failed',
      message: 'exit 2\nOops! Something went wrong',
    });
  });
});

describe('judgeChecks', () => {
  it('finds a check that still fails on the replay, naming its first diagnostics', () => {
    const green = suite([['adds', 'passed']]);
    const judged = judgeChecks([lint], green, green.report, true);
    expect(judged.findings).toEqual([
      {
        kind: 'check_failed',
        message:
          "the check `npx eslint src` still fails on the pristine checkout with the patch (exit 1): src/a.js:1:7 'unused' is assigned a value but never used (no-unused-vars); src/b.js:4:1 Missing semicolon (semi)",
      },
    ]);
    expect(judged.checks[0]).toMatchObject({ command: 'npx eslint src', passed: false, diagnostics: 2 });
  });

  it('lets the tests fail as at the baseline, and no more; refuses when the baseline could not be read per test', () => {
    const red = suite([
      ['adds', 'passed'],
      ['broken', 'failed'],
    ]);
    expect(judgeChecks([passing], red, red.report, false)).toMatchObject({ findings: [], suiteMayFail: true });
    const worse = suite([
      ['adds', 'passed'],
      ['broken', 'failed'],
      ['added', 'failed'],
    ]);
    expect(judgeChecks([passing], worse, red.report, false)).toMatchObject({
      suiteMayFail: false,
      findings: [{ kind: 'pass_to_fail', message: '`added` did not fail at the baseline and fails now' }],
    });
    const unread = suite([], false);
    expect(judgeChecks([passing], red, unread.report, false).findings[0]).toMatchObject({ kind: 'evidence_missing' });
  });
});
