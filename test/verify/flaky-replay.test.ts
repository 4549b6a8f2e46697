// The judge and flaky tests (docs/design.md §3.2.8): a flaky test's outcome in the replay counts for
// nothing, a test that passed at the baseline and fails in the replay is run again before it is a
// regression, and a patch whose only effect is on flaky tests is no fix.
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { TestCaseResult, TestReport } from '../../src/core/test-report.ts';
import { FlakyTests } from '../../src/gate/flaky-tests.ts';
import type { SuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { compareTests } from '../../src/verify/compare-tests.ts';
import { judgeFlakyReplay } from '../../src/verify/flaky-replay.ts';
import { gateOf, reportOf, type Outcomes } from '../support/report-of.ts';

const SHAPE = { file: 'test/a.test.js', view: 'inside', guard: null } as const;
const report = (tests: Outcomes): TestReport => reportOf(tests, SHAPE);
const gate = (tests: Outcomes): GateResult => gateOf(tests, SHAPE);

/** A judged suite whose reruns answer from `answers`, one after another. */
function suite(answers: GateResult[]): SuiteRunner & { commands: string[] } {
  const commands: string[] = [];
  const runner: SuiteRunner & { commands: string[] } = {
    testCommand: 'node --test',
    setupCommand: null,
    commands,
    setup: async () => null,
    gate: async () => {
      throw new Error('the full suite is not run here');
    },
    gateWith: async (_cwd, command) => {
      commands.push(command);
      const next = answers.shift();
      if (!next) throw new Error('more runs than scripted');
      return next;
    },
    plain: () => Promise.reject(new Error('this test runs no command of its own')),
    checkCommands: [],
    checks: async () => [],
    judged: () => runner,
  };
  return runner;
}

async function judge(baseline: TestReport, replay: GateResult, flaky: FlakyTests, answers: GateResult[] = []) {
  const judged = suite(answers);
  const result = await judgeFlakyReplay({
    baseline,
    gate: replay,
    comparison: compareTests(baseline, replay.report),
    flaky,
    suite: judged,
    dir: '/nonexistent',
    log: () => undefined,
  });
  return { ...result, commands: judged.commands };
}

describe('flaky tests in the replay', () => {
  const baseline = report([
    ['adds', 'failed'],
    ['flaky', 'failed'],
    ['other', 'passed'],
  ]);

  it('counts a known flaky test for nothing, failing or passing, and accepts a suite failing only on it', async () => {
    const flaky = new FlakyTests(3);
    flaky.add({ id: 'flaky', runs: 4, failed: 2, seen: 'baseline' });
    const failing = await judge(
      baseline,
      gate([
        ['adds', 'passed'],
        ['flaky', 'failed'],
        ['other', 'passed'],
      ]),
      flaky,
    );
    expect(failing).toMatchObject({ discounted: ['flaky'], onlyFlakyFailed: true, findings: [], commands: [] });
    expect(failing.comparison).toMatchObject({ failToPass: ['adds'], stillFailing: [] });
    const passing = await judge(
      baseline,
      gate([
        ['adds', 'passed'],
        ['flaky', 'passed'],
        ['other', 'passed'],
      ]),
      flaky,
    );
    expect(passing.comparison.failToPass).toEqual(['adds']);
  });

  it('runs a new failure again: one that passes again is flaky, one that fails every time is a regression', async () => {
    const before = report([
      ['adds', 'failed'],
      ['flaky', 'passed'],
      ['other', 'passed'],
    ]);
    const flaky = new FlakyTests(2);
    const replay = gate([
      ['adds', 'passed'],
      ['flaky', 'failed'],
      ['other', 'failed'],
    ]);
    const rerun = (flakyStatus: TestCaseResult['status']) =>
      gate([
        ['flaky', flakyStatus],
        ['other', 'failed'],
      ]);
    const judged = await judge(before, replay, flaky, [rerun('failed'), rerun('passed')]);
    expect(judged.commands).toEqual(Array(2).fill("node --test --test-name-pattern='flaky|other' test/a.test.js"));
    expect(judged.comparison.passToFail).toEqual(['other']);
    expect(judged.discounted).toEqual(['flaky']);
    expect(judged.onlyFlakyFailed).toBe(false);
    expect(flaky.list()).toEqual([{ id: 'flaky', runs: 3, failed: 2, seen: 'replay' }]);
  });

  it('finds a patch no fix when every test that failed at the baseline is flaky', async () => {
    const flaky = new FlakyTests(3);
    flaky.add({ id: 'flaky', runs: 4, failed: 3, seen: 'baseline' });
    const only = report([
      ['flaky', 'failed'],
      ['other', 'passed'],
    ]);
    const judged = await judge(
      only,
      gate([
        ['flaky', 'passed'],
        ['other', 'passed'],
      ]),
      flaky,
    );
    expect(judged.findings.map((f) => f.kind)).toEqual(['flaky_only']);
    expect(judged.comparison.failToPass).toEqual([]);
  });

  it('changes nothing where the run measures no flakiness', async () => {
    const replay = gate([
      ['adds', 'passed'],
      ['flaky', 'failed'],
      ['other', 'passed'],
    ]);
    const judged = await judgeFlakyReplay({
      baseline,
      gate: replay,
      comparison: compareTests(baseline, replay.report),
      flaky: undefined,
      suite: suite([]),
      dir: '/nonexistent',
      log: () => undefined,
    });
    expect(judged).toMatchObject({ discounted: [], onlyFlakyFailed: false, findings: [] });
    expect(judged.comparison.stillFailing).toEqual(['flaky']);
  });
});
