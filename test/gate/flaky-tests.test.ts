// Flaky tests told apart from real failures (docs/design.md §3.2.8): the failing tests run again
// together, a test seen passing is flaky, and the gate the loop and the engines see counts a flaky
// test's failure for nothing.
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { TestReport } from '../../src/core/test-report.ts';
import { confirmNewFailures, FlakyTests, onlyFlakyFailed, withoutFlaky } from '../../src/gate/flaky-tests.ts';
import { flakyOf, rerunFailing } from '../../src/gate/rerun-tests.ts';
import { gateOf, reportOf, type Outcomes } from '../support/report-of.ts';

const FILE = 'test/a.test.js';
const report = (tests: Outcomes, view: TestReport['view'] = 'inside'): TestReport => reportOf(tests, { file: FILE, view });
const gate = (tests: Outcomes, view: TestReport['view'] = 'inside'): GateResult => gateOf(tests, { file: FILE, view });

/** A runner whose runs come one after another from `runs`; the commands it was given are kept. */
function scripted(runs: GateResult[]) {
  const commands: string[] = [];
  return {
    commands,
    run: (command: string) => {
      commands.push(command);
      const next = runs.shift();
      if (!next) throw new Error('more runs than scripted');
      return Promise.resolve(next);
    },
  };
}

describe('rerunFailing', () => {
  it('runs the failing tests together, once per rerun, and counts each test', async () => {
    const runner = scripted([
      gate([
        ['adds', 'failed'],
        ['flaky', 'passed'],
      ]),
      gate([
        ['adds', 'failed'],
        ['flaky', 'failed'],
      ]),
      gate([
        ['adds', 'failed'],
        ['flaky', 'passed'],
      ]),
    ]);
    const failing = report([
      ['adds', 'failed'],
      ['flaky', 'failed'],
    ]).tests;
    const rerun = await rerunFailing({ run: runner.run, testCommand: 'node --test', packageScripts: {}, failing, reruns: 3 });
    expect(runner.commands).toEqual(Array(3).fill("node --test --test-name-pattern='adds|flaky' test/a.test.js"));
    if (rerun.command === null) throw new Error(rerun.why);
    expect(Object.fromEntries(rerun.counts)).toEqual({ adds: { runs: 4, failed: 4 }, flaky: { runs: 4, failed: 2 } });
    expect(flakyOf(rerun.counts)).toEqual([{ id: 'flaky', runs: 4, failed: 2 }]);
  });

  it('counts a test the rerun does not name as not passing, unless the run passed with no failure', async () => {
    const quiet = gate([], 'output');
    const passedQuietly: GateResult = { ...quiet, report: { ...quiet.report, passed: 1, total: 1 } };
    const runner = scripted([passedQuietly, gate([['other', 'failed']])]);
    const rerun = await rerunFailing({
      run: runner.run,
      testCommand: 'node --test',
      packageScripts: {},
      failing: report([['flaky', 'failed']]).tests,
      reruns: 2,
    });
    if (rerun.command === null) throw new Error(rerun.why);
    expect(rerun.counts.get('flaky')).toEqual({ runs: 3, failed: 2 });
  });

  it('says why when the command cannot run chosen tests alone', async () => {
    const rerun = await rerunFailing({
      run: () => Promise.reject(new Error('never run')),
      testCommand: 'make test && echo done',
      packageScripts: {},
      failing: report([['adds', 'failed']]).tests,
      reruns: 3,
    });
    expect(rerun).toMatchObject({ command: null, why: expect.stringContaining('cannot run chosen tests alone') });
  });
});

describe('the gate as the loop sees it', () => {
  const flaky = new Set(['flaky']);

  it('passes when its only failures are flaky, the flaky failure counted as skipped', () => {
    const seen = withoutFlaky(
      gate([
        ['adds', 'passed'],
        ['flaky', 'failed'],
      ]),
      flaky,
    );
    expect(seen.passed).toBe(true);
    expect(seen.report).toMatchObject({ passed: 1, failed: 0, skipped: 1, total: 2 });
    expect(seen.report.tests.find((t) => t.id === 'flaky')?.status).toBe('skipped');
  });

  it('keeps failing with the other failures, which alone are the engines’ target', () => {
    const seen = withoutFlaky(
      gate([
        ['adds', 'failed'],
        ['flaky', 'failed'],
      ]),
      flaky,
    );
    expect(seen.passed).toBe(false);
    expect(seen.report.tests.filter((t) => t.status === 'failed').map((t) => t.id)).toEqual(['adds']);
    expect(seen.report.failed).toBe(1);
  });

  it('is not a flaky-only failure where the failures are not all named, or the run timed out', () => {
    const counted = gate([['flaky', 'failed']]);
    expect(onlyFlakyFailed(counted, flaky)).toBe(true);
    expect(onlyFlakyFailed({ ...counted, report: { ...counted.report, failed: 2 } }, flaky)).toBe(false);
    expect(onlyFlakyFailed(gate([['flaky', 'failed']], 'counts'), flaky)).toBe(false);
    expect(onlyFlakyFailed({ ...counted, passed: false, reason: 'TIMEOUT' }, flaky)).toBe(false);
  });
});

describe('confirmNewFailures', () => {
  const baseline = report([
    ['adds', 'failed'],
    ['flaky', 'passed'],
    ['broken', 'passed'],
  ]);

  it('runs again only the tests that passed at the baseline, and adds those seen passing', async () => {
    const registry = new FlakyTests(2);
    const runner = scripted([
      gate([
        ['flaky', 'passed'],
        ['broken', 'failed'],
      ]),
      gate([
        ['flaky', 'failed'],
        ['broken', 'failed'],
      ]),
    ]);
    const now = gate([
      ['adds', 'failed'],
      ['flaky', 'failed'],
      ['broken', 'failed'],
    ]);
    const reruns = await confirmNewFailures({
      gate: now,
      baseline,
      flaky: registry,
      seen: 'replay',
      cwd: '/nonexistent',
      testCommand: 'node --test',
      run: runner.run,
    });
    expect(reruns).toHaveLength(2);
    expect(runner.commands[0]).toBe("node --test --test-name-pattern='broken|flaky' test/a.test.js");
    expect(registry.list()).toEqual([{ id: 'flaky', runs: 3, failed: 2, seen: 'replay' }]);
  });

  it('runs nothing when the check is off', async () => {
    const registry = new FlakyTests(0);
    const reruns = await confirmNewFailures({
      gate: gate([['flaky', 'failed']]),
      baseline,
      flaky: registry,
      seen: 'attempt',
      cwd: '/nonexistent',
      testCommand: 'node --test',
      run: () => Promise.reject(new Error('never run')),
    });
    expect(reruns).toEqual([]);
    expect(registry.list()).toEqual([]);
  });
});
