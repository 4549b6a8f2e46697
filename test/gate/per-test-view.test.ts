// The per-test view of a gate run (docs/design.md §3.2.1), on synthetic records and a runner's guard that
// names a recorded test as a parser would (`file > titles`): from inside the test processes when every
// record names its tests, the output's otherwise, and what the output and the machine report say against
// the records as conflicts.
import { describe, expect, it } from 'vitest';
import type { GuardRecord, GuardTestCase } from '../../src/core/guard-record.ts';
import type { TestCaseResult, TestReport } from '../../src/core/test-report.ts';
import { perTestView } from '../../src/gate/per-test-view.ts';

/** A fake runner's guard: the id its parser would give, `file > suite > title`. */
const testCase = (recorded: GuardTestCase): TestCaseResult => ({
  id: [recorded.file ?? '?', ...recorded.titles].join(' > '),
  name: recorded.titles.at(-1) ?? '',
  ...(recorded.file ? { file: recorded.file } : {}),
  status: recorded.outcome,
});
const recorded = (title: string, outcome: GuardTestCase['outcome'], more: Partial<GuardTestCase> = {}): GuardTestCase => ({
  file: 'test/math.test.js',
  titles: ['math', title],
  outcome,
  ...more,
});
const record = (cases: GuardTestCase[] | undefined, over: Partial<GuardRecord> = {}): GuardRecord => {
  const count = (o: string) => (cases ?? []).filter((c) => c.outcome === o).length;
  return {
    runner: 'mocha',
    pid: 7,
    complete: true,
    tests: { passed: count('passed'), failed: count('failed'), skipped: count('skipped') },
    events: [],
    ...(cases ? { cases } : {}),
    ...over,
  };
};
/** What the gate read before the view: the output's report (here `mocha --reporter dot`'s counts), the guard's records. */
const read = (records: GuardRecord[], output: Partial<TestReport> = {}): TestReport => ({
  format: 'unknown',
  parsed: true,
  passed: 1,
  failed: 1,
  skipped: 0,
  total: 2,
  tests: [],
  guard: { runner: 'mocha', records },
  ...output,
});
const ADDS = 'test/math.test.js > math > adds';
const SUBTRACTS = 'test/math.test.js > math > subtracts';

describe('the per-test view', () => {
  it('names the tests from inside the processes when the output gives counts only, with the failure the guard saw', () => {
    const view = perTestView(
      read([
        record([
          recorded('adds', 'failed', { message: 'expected 3, got 4', stack: 'at add (src/math.js:2:10)' }),
          recorded('subtracts', 'passed'),
        ]),
      ]),
      testCase,
    );
    expect(view).toMatchObject({ view: 'inside', parsed: true, passed: 1, failed: 1, skipped: 0, total: 2, conflicts: [] });
    expect(view.tests).toEqual([
      {
        id: ADDS,
        name: 'adds',
        file: 'test/math.test.js',
        status: 'failed',
        message: 'expected 3, got 4',
        stack: 'at add (src/math.js:2:10)',
      },
      { id: SUBTRACTS, name: 'subtracts', file: 'test/math.test.js', status: 'passed' },
    ]);
    // The output's own counts stay for the judge's count check.
    expect(view.printed).toEqual({ format: 'unknown', parsed: true, passed: 1, failed: 1, skipped: 0, total: 2 });
  });

  it('keeps the parser’s richer fields where it names the same test', () => {
    const printed: TestCaseResult = {
      id: ADDS,
      name: 'adds',
      status: 'failed',
      message: 'AssertionError: expected 4 to equal 3',
      expected: '3',
      actual: '4',
      durationMs: 12,
    };
    const view = perTestView(
      read([record([recorded('adds', 'failed', { message: 'capped' }), recorded('subtracts', 'passed')])], {
        format: 'mocha',
        tests: [printed],
      }),
      testCase,
    );
    expect(view.tests[0]).toEqual({ ...printed, file: 'test/math.test.js' });
    expect(view.format).toBe('mocha');
    expect(view.conflicts).toEqual([]);
  });

  it('records a test the output gives another outcome, one it names that no process ran, and counts that differ', () => {
    const view = perTestView(
      read([record([recorded('adds', 'failed'), recorded('subtracts', 'passed')])], {
        passed: 3,
        failed: 0,
        total: 3,
        tests: [
          { id: ADDS, name: 'adds', status: 'passed' },
          { id: 'test/math.test.js > math > multiplies', name: 'multiplies', status: 'passed' },
        ],
        witness: { runner: 'mocha', passed: 2, failed: 0, skipped: 0, total: 2 },
      }),
      testCase,
    );
    expect(view.view).toBe('inside');
    expect(view.failed).toBe(1);
    expect(view.conflicts?.map((c) => c.subject)).toEqual([
      `status:${ADDS}:passed:failed`,
      'unseen:test/math.test.js > math > multiplies',
      'counts:output',
      'counts:witness',
    ]);
    expect(view.conflicts?.[0]?.message).toBe(`the runner's output says \`${ADDS}\` passed; inside its test process it failed`);
    expect(view.conflicts?.[2]?.message).toBe(
      "the runner's output counts 3 passed, 0 failed, 0 skipped; inside the test processes 1 passed, 1 failed, 0 skipped ended",
    );
  });

  it('counts a test two processes ran alike once, and one they ended differently as a conflict, failed', () => {
    const twice = perTestView(
      read([record([recorded('adds', 'passed')]), record([recorded('adds', 'passed')])], { passed: 2, failed: 0 }),
      testCase,
    );
    expect(twice).toMatchObject({ view: 'inside', passed: 1, failed: 0, total: 1 });
    expect(twice.conflicts?.map((c) => c.subject)).toEqual(['counts:output']);

    const differently = perTestView(read([record([recorded('adds', 'passed')]), record([recorded('adds', 'failed')])]), testCase);
    expect(differently).toMatchObject({ passed: 0, failed: 1, total: 1 });
    expect(differently.conflicts?.[0]).toEqual({
      subject: `twice:${ADDS}`,
      message: `\`${ADDS}\` ended passed in one test process and failed in another`,
    });
  });

  it('falls back to the output, and says so, where a record cannot name the tests', () => {
    const cases = [recorded('adds', 'failed'), recorded('subtracts', 'passed')];
    const named = { format: 'mocha', tests: [{ id: 'math > adds', name: 'adds', status: 'failed' as const }] };
    // An incomplete record: the process ended before the runner finished.
    expect(perTestView(read([record(cases), record(cases, { complete: false })], named), testCase).view).toBe('output');
    // A record that counted tests and names none, or fewer than it counted.
    expect(perTestView(read([record(cases), record(undefined)], named), testCase).view).toBe('output');
    expect(perTestView(read([record(cases, { tests: { passed: 2, failed: 1, skipped: 0 } })], named), testCase).view).toBe(
      'output',
    );
    // A runner whose guard names no test, and a runner with no guard.
    expect(perTestView(read([record(cases)], named)).view).toBe('output');
    expect(perTestView({ ...read([], named), guard: null }, testCase)).toMatchObject({ view: 'output', tests: named.tests });
  });

  it('says counts where nothing names a test, and none where nothing could be read', () => {
    expect(perTestView(read([record(undefined)])).view).toBe('counts');
    // The output unread, but every guarded process counted its tests: their counts, no names.
    const unread = { format: 'unknown', parsed: false, passed: 0, failed: 0, skipped: 0, total: 0 };
    const counted = perTestView(read([record(undefined, { tests: { passed: 2, failed: 1, skipped: 0 } })], unread));
    expect(counted).toMatchObject({ view: 'counts', parsed: true, format: 'mocha', passed: 2, failed: 1, total: 3 });
    expect(counted.printed).toEqual(unread);
    expect(perTestView(read([record(undefined, { complete: false })], unread)).view).toBe('none');
    expect(perTestView({ ...read([], unread), guard: null }).view).toBe('none');
  });
});
