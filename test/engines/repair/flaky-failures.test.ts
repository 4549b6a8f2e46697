// The repair engine and flaky tests (docs/design.md §3.2.8): a candidate whose suite fails only on
// flaky tests passes; a test that passed before the candidate and fails with it is run again first;
// a candidate that leaves a failing test failing is never worth those runs.
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../../src/core/gate-result.ts';
import type { TestCaseResult } from '../../../src/core/test-report.ts';
import { failedOnlyOnFlaky, type FlakyFailuresInput } from '../../../src/engines/repair/flaky-failures.ts';

const gate = (tests: Array<[string, TestCaseResult['status']]>): GateResult => {
  const cases = tests.map(([id, status]) => ({ id, name: id, file: 'test/a.test.js', status }));
  const failed = cases.filter((t) => t.status === 'failed').length;
  const report = {
    format: 'node-test',
    parsed: true,
    passed: cases.length - failed,
    failed,
    skipped: 0,
    total: cases.length,
    tests: cases,
    view: 'inside' as const,
  };
  return failed > 0
    ? { passed: false, reason: 'NON_ZERO_EXIT', exitCode: 1, report, output: '', durationMs: 1 }
    : { passed: true, report, output: '', durationMs: 1 };
};

function input(answers: GateResult[], overrides: Partial<FlakyFailuresInput> = {}): FlakyFailuresInput & { commands: string[] } {
  const commands: string[] = [];
  return {
    flaky: new Set(['flaky']),
    reruns: 2,
    testCommand: 'node --test',
    failingIds: new Set(['adds']),
    cwd: '/nonexistent',
    run: (command) => {
      commands.push(command);
      const next = answers.shift();
      return next ? Promise.resolve(next) : Promise.reject(new Error('more runs than scripted'));
    },
    deadline: Date.now() + 60_000,
    signal: new AbortController().signal,
    commands,
    ...overrides,
  };
}

describe('a candidate suite that fails on flaky tests', () => {
  it('passes when its only failures are known flaky tests, with no run again', async () => {
    const given = input([]);
    expect(
      await failedOnlyOnFlaky(
        gate([
          ['adds', 'passed'],
          ['flaky', 'failed'],
        ]),
        given,
      ),
    ).toBe(true);
    expect(given.commands).toEqual([]);
  });

  it('runs a test the candidate broke again: it passes when that test passes again, not when it fails every time', async () => {
    const suite = gate([
      ['adds', 'passed'],
      ['other', 'failed'],
    ]);
    const flakyAgain = input([gate([['other', 'failed']]), gate([['other', 'passed']])]);
    expect(await failedOnlyOnFlaky(suite, flakyAgain)).toBe(true);
    expect(flakyAgain.commands).toHaveLength(2);
    const broken = input([gate([['other', 'failed']]), gate([['other', 'failed']])]);
    expect(await failedOnlyOnFlaky(suite, broken)).toBe(false);
  });

  it('runs nothing again for a candidate that leaves a failing test failing, or with the check off', async () => {
    const stillFailing = input([]);
    expect(
      await failedOnlyOnFlaky(
        gate([
          ['adds', 'failed'],
          ['other', 'failed'],
        ]),
        stillFailing,
      ),
    ).toBe(false);
    expect(stillFailing.commands).toEqual([]);
    const off = input([], { reruns: 0 });
    expect(
      await failedOnlyOnFlaky(
        gate([
          ['adds', 'passed'],
          ['other', 'failed'],
        ]),
        off,
      ),
    ).toBe(false);
    expect(off.commands).toEqual([]);
  });
});
