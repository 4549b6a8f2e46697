// pytest's conformance matrix (issue 46): the matrix's project (a failing and a passing test, a
// parametrized one, a unittest.TestCase with self.subTest, a skipped one, in two files), as it is and
// fixed, recorded as real runs with pytest's runtime guard under each terminal flag a project may
// choose (the default, -q, -qq, --tb=no, -p no:terminal, -rA, xdist's -n 2 where installed), at pytest 9
// and 7 (test/fixtures/runners/pytest/matrix/, written by test/support/record-pytest-matrix.ts). In
// every cell the guard's records, through the guard's `testCase`, give the same tests, ids and
// outcomes, agree with what the output's parser names, and give the same focused command and the
// same fail → pass names. No live run here (pytest-guard-cases.test.ts runs pytest).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GuardRecord } from '../../src/core/guard-record.ts';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import { parseTestOutput } from '../../src/gate/parse-test-output.ts';
import { focusedTestCommand } from '../../src/runners/focused-test-command.ts';
import { pytestTestCase } from '../../src/runners/pytest/pytest-guard.ts';
import { isSubtestDescription } from '../../src/runners/pytest/subtest-id.ts';
import { CELLS, MATRIX, matrixView, type MatrixIndex, type MatrixRun } from '../support/pytest-matrix.ts';

const index = JSON.parse(readFileSync(join(MATRIX, 'runs.json'), 'utf8')) as MatrixIndex;
const recordsOf = (run: MatrixRun) => JSON.parse(readFileSync(join(MATRIX, run.records), 'utf8')) as GuardRecord[];
const outputOf = (run: MatrixRun) => readFileSync(join(MATRIX, run.output), 'utf8');
const testsOf = (run: MatrixRun): TestCaseResult[] => recordsOf(run).flatMap((r) => (r.cases ?? []).map(pytestTestCase));
const lines = (tests: TestCaseResult[]) => tests.map((t) => `${t.id} ${t.status}`).sort();
const failing = (tests: TestCaseResult[]) => tests.filter((t) => t.status === 'failed');
const subtestsPlugin = (major: number) => index.recordedWith[String(major)]?.subtestsPlugin ?? false;
const versions = Object.keys(index.recordedWith).map(Number);
const subtestCases = (recorded: GuardRecord['cases']) =>
  (recorded ?? []).filter((c) => isSubtestDescription(c.titles.at(-1) ?? ''));
/** Cells whose verbosity is pytest's default: pytest 9 then counts no passed subtest in its summary. */
const QUIET_SUBTESTS = new Set(['default', 'tb-no', 'rA', 'xdist']);

describe('pytest’s conformance matrix', () => {
  it('has every cell at pytest 7 and 9, as it is and fixed (xdist where it was installed)', () => {
    expect(versions.sort()).toEqual([7, 9]);
    for (const major of versions)
      for (const run of ['broken', 'fixed'])
        expect(
          index.runs.filter((r) => r.pytest === major && r.run === run).map((r) => r.cell),
          `pytest ${major} ${run}`,
        ).toEqual(expect.arrayContaining(CELLS.filter((c) => !c.plugin).map((c) => c.cell)));
    expect(index.runs.some((r) => r.cell === 'xdist')).toBe(true);
  });

  describe.each(index.runs.map((run) => [`pytest ${run.pytest} ${run.cell} ${run.run}`, run] as const))('%s', (_, run) => {
    const records = recordsOf(run);
    const tests = testsOf(run);

    it('has complete records whose counts are their cases, with no event', () => {
      expect(run.exitCode).toBe(run.run === 'broken' ? 1 : 0);
      expect(records.length).toBe(run.cell === 'xdist' ? 3 : 1);
      for (const record of records) {
        expect(record).toMatchObject({ runner: 'pytest', complete: true, events: [] });
        for (const outcome of ['passed', 'failed', 'skipped'] as const)
          expect(record.tests?.[outcome]).toBe((record.cases ?? []).filter((c) => c.outcome === outcome).length);
      }
      // xdist: the workers recorded every test; the controller none.
      if (run.cell === 'xdist') expect(records[0]?.cases).toEqual([]);
    });

    it('names the same tests, ids and outcomes as every other cell of its pytest', () => {
      expect(lines(tests)).toEqual([...matrixView(run.pytest, subtestsPlugin(run.pytest), run.run === 'fixed')].sort());
    });

    it('agrees with what the output’s parser names and counts', () => {
      const parsed = parseTestOutput(outputOf(run));
      const view = new Map(tests.map((t) => [t.id, t]));
      for (const printed of parsed.tests) expect(view.get(printed.id)?.status, printed.id).toBe(printed.status);
      // pytest-subtests prints a failed subtest without its description (`SUBFAIL <test id>`).
      const unnamed = new Set(
        run.pytest >= 9 ? [] : records.flatMap((r) => subtestCases(r.cases)).map((c) => pytestTestCase(c).id),
      );
      if (run.cell === 'default')
        expect(failing(parsed.tests).map((t) => t.id)).toEqual(
          failing(tests)
            .map((t) => t.id)
            .filter((id) => !unnamed.has(id)),
        );
      if (!parsed.parsed) {
        // -qq prints no closing line and -p no:terminal nothing: the records are the only per-test view.
        expect(['qq', 'no-terminal']).toContain(run.cell);
        return;
      }
      const counted = { passed: 0, failed: 0, skipped: 0 };
      for (const t of tests) counted[t.status] += 1;
      // At its default verbosity pytest 9 leaves its passed subtests out of its summary.
      const unprinted =
        run.pytest >= 9 && QUIET_SUBTESTS.has(run.cell)
          ? records.flatMap((r) => subtestCases(r.cases)).filter((c) => c.outcome === 'passed').length
          : 0;
      expect(parsed).toMatchObject({ format: 'pytest', ...counted, passed: counted.passed - unprinted });
    });

    it('gives the focused command of every other cell', () => {
      const ids = 'tests/test_math.py::test_adds tests/test_parity.py::TestParity::test_small_numbers';
      expect(focusedTestCommand('python3 -m pytest', failing(tests))).toBe(
        run.run === 'fixed' ? null : `python3 -m pytest ${ids}`,
      );
      if (run.run === 'broken') expect(focusedTestCommand(run.command, failing(tests))).toBe(`${run.command} ${ids}`);
    });
  });

  it.each(versions)('gives the same fail → pass names in every cell at pytest %i', (major) => {
    const runs = index.runs.filter((r) => r.pytest === major);
    const failToPass = new Set(
      runs
        .filter((r) => r.run === 'broken')
        .map((broken) => {
          const fixed = runs.find((r) => r.run === 'fixed' && r.cell === broken.cell);
          const passed = new Set(
            fixed
              ? testsOf(fixed)
                  .filter((t) => t.status === 'passed')
                  .map((t) => t.id)
              : [],
          );
          return JSON.stringify(
            failing(testsOf(broken))
              .filter((t) => passed.has(t.id))
              .map((t) => t.id),
          );
        }),
    );
    expect([...failToPass]).toEqual([
      JSON.stringify([
        'tests/test_math.py::test_adds',
        // pytest-subtests reports no passing subtest of a TestCase: fixed, the subtest is its test passing.
        ...(major >= 9 ? ['tests/test_parity.py::TestParity::test_small_numbers (n=3)'] : []),
      ]),
    ]);
  });
});

describe('pytest’s testCase', () => {
  const name = (file: string | null, titles: string[]) => pytestTestCase({ file, titles, outcome: 'failed' });

  it('names a test by its node id, as parse-pytest does', () => {
    expect(name('tests/t.py', ['TestC', 'test_a[1-2]'])).toEqual({
      id: 'tests/t.py::TestC::test_a[1-2]',
      name: 'test_a[1-2]',
      file: 'tests/t.py',
      status: 'failed',
    });
    expect(name('tests/t.py', ['test_a[x::y]']).id).toBe('tests/t.py::test_a[x::y]');
    expect(name('README.txt', ['README.txt']).id).toBe('README.txt::README.txt');
  });

  it('names a module pytest could not collect by its path, and a subtest after its test', () => {
    expect(name(null, ['tests/t.py'])).toMatchObject({ id: 'tests/t.py', name: 'tests/t.py', file: 'tests/t.py' });
    expect(name(null, ['<session>']).id).toBe('<session>');
    expect(name('tests/t.py', ['TestC', 'test_a', '(i=1)'])).toMatchObject({
      id: 'tests/t.py::TestC::test_a (i=1)',
      name: 'test_a (i=1)',
      file: 'tests/t.py',
    });
    expect(name('tests/t.py', ['test_b[1]', '[half] (i=0)']).id).toBe('tests/t.py::test_b[1] [half] (i=0)');
  });

  it('keeps the failure the guard recorded', () => {
    expect(pytestTestCase({ file: 't.py', titles: ['test_a'], outcome: 'failed', message: 'm', stack: 's' })).toMatchObject({
      message: 'm',
      stack: 's',
    });
  });
});
