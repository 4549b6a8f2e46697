// pytest's runtime guard names each test it sees end (GuardRecord.cases), live, at pytest 9 (pyenv's
// python3) and pytest 7 (Debian's): ids as pytest prints them, through `testCase`; outcomes and counts
// as pytest's summary counts them, whatever the terminal's flags; subtests, unittest-style tests, a
// failure's message and traceback; xdist's workers and pytest-rerunfailures where installed.
// (What the guard records of tampering: pytest-guard.test.ts.)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { GuardRecord } from '../../src/core/guard-record.ts';
import { focusedTestCommand } from '../../src/runners/focused-test-command.ts';
import { issueKeys, readTakenKeys } from '../../src/runners/guard-records.ts';
import { pytestGuard, pytestTestCase } from '../../src/runners/pytest/pytest-guard.ts';
import { RUNNER_VARIABLE_SOURCES } from '../../src/runners/registry.ts';
import {
  PYTESTS,
  countsMatchCases,
  guardedPytest,
  namedTests,
  pluginOptions,
  pytestProject,
  recordsOf,
  removePytestProjects,
  viewLines,
} from '../support/pytest-guard-run.ts';
import { matrixView } from '../support/pytest-matrix.ts';

vi.setConfig({ testTimeout: 120_000 });
afterAll(() => removePytestProjects());

describe.each(PYTESTS.map((p) => [`pytest ${p.major} (${p.python})`, p] as const))('%s', (_, pytest) => {
  const subtests = pluginOptions(pytest, ['subtests']);

  it('names each test by its node id, with the outcome pytest counted, and the failure’s message and traceback', async () => {
    const gate = await guardedPytest(pytest, pytestProject(), `-q ${subtests}`);
    expect(recordsOf(gate)).toEqual([expect.objectContaining({ complete: true, events: [] })]);
    expect(viewLines(gate)).toEqual(matrixView(pytest.major, pytest.plugins.subtests));
    expect(recordsOf(gate).every(countsMatchCases)).toBe(true);
    expect(gate.report).toMatchObject(recordsOf(gate)[0]?.tests ?? {});
    const adds = namedTests(gate).find((t) => t.name === 'test_adds');
    expect(adds).toMatchObject({ file: 'tests/test_math.py', message: 'assert 3 == 2\n +  where 3 = add(1, 1)' });
    expect(adds?.stack).toMatch(/def test_adds\(\):\n>\s+assert add\(1, 1\) == 2[\s\S]*tests\/test_math.py:7: AssertionError$/);
    const failing = namedTests(gate).filter((t) => t.status === 'failed');
    expect(focusedTestCommand('python3 -m pytest', failing)).toBe(
      `python3 -m pytest tests/test_math.py::test_adds tests/test_parity.py::TestParity::test_small_numbers`,
    );
  });

  it('names the same tests whatever the terminal prints, and prints its own traceback where --tb=no prints none', async () => {
    const cwd = pytestProject();
    for (const flags of ['-qq --tb=no', '-p no:terminal', '-rA --tb=line']) {
      const gate = await guardedPytest(pytest, cwd, `${flags} ${subtests}`);
      expect(viewLines(gate), flags).toEqual(matrixView(pytest.major, pytest.plugins.subtests));
      const adds = namedTests(gate).find((t) => t.name === 'test_adds');
      // Without its terminal, pytest's own assertion report fails (it asks for the terminal's writer).
      const error = flags === '-p no:terminal' ? '\\w+Error' : 'AssertionError';
      expect(adds?.stack, flags).toMatch(new RegExp(`def test_adds\\(\\):\n>[\\s\\S]*\\.py:\\d+: ${error}$`));
    }
  });

  it('records a subtest of the `subtests` fixture as a case of its own, and its test as pytest reports it', async (context) => {
    if (pytest.major < 9 && !pytest.plugins.subtests) context.skip(); // pytest 7 has it from pytest-subtests only
    const halves =
      'def test_halves(subtests):\n    for i in range(2):\n        with subtests.test(msg="half", i=i):\n            assert i < 1\n';
    const gate = await guardedPytest(pytest, pytestProject({ 'tests/test_halves.py': halves }, false), subtests);
    expect(viewLines(gate)).toEqual([
      'tests/test_halves.py::test_halves [half] (i=0) passed',
      'tests/test_halves.py::test_halves [half] (i=1) failed',
      // pytest 9 fails a test whose subtest failed ("contains 1 failed subtest"); pytest-subtests does not.
      `tests/test_halves.py::test_halves ${pytest.major >= 9 ? 'failed' : 'passed'}`,
    ]);
    expect(namedTests(gate)[1]).toMatchObject({ name: 'test_halves [half] (i=1)', message: 'assert 1 < 1' });
    expect(recordsOf(gate).every(countsMatchCases)).toBe(true);
  });

  it('counts errors, xfail and xpass, a module that cannot be collected and one skipped whole, as pytest’s summary', async () => {
    const odd = [
      'import pytest',
      '',
      '',
      '@pytest.fixture',
      'def broken():',
      '    raise RuntimeError("setup")',
      '',
      '',
      '@pytest.fixture',
      'def leaky():',
      '    yield',
      '    raise RuntimeError("teardown")',
      '',
      '',
      'def test_setup_error(broken):',
      '    pass',
      '',
      '',
      'def test_teardown_error(leaky):',
      '    pass',
      '',
      '',
      '@pytest.mark.xfail',
      'def test_xfail():',
      '    assert False',
      '',
      '',
      '@pytest.mark.xfail',
      'def test_xpass():',
      '    pass',
      '',
      '',
      '@pytest.mark.xfail(strict=True)',
      'def test_xpass_strict():',
      '    pass',
      '',
    ].join('\n');
    const cwd = pytestProject(
      {
        'tests/test_odd.py': odd,
        'tests/test_broken.py': 'def broken(:\n',
        'tests/test_gone.py': 'import pytest\n\npytest.skip("not here", allow_module_level=True)\n',
      },
      false,
    );
    const gate = await guardedPytest(pytest, cwd, '-p no:terminal --continue-on-collection-errors');
    expect(viewLines(gate)).toEqual([
      'tests/test_broken.py failed',
      'tests/test_gone.py skipped',
      'tests/test_odd.py::test_setup_error failed',
      // pytest's "1 passed, 1 error" for one test: its call, then its teardown's error.
      'tests/test_odd.py::test_teardown_error passed',
      'tests/test_odd.py::test_teardown_error failed',
      'tests/test_odd.py::test_xfail skipped',
      'tests/test_odd.py::test_xpass passed',
      'tests/test_odd.py::test_xpass_strict failed',
    ]);
    const printed = await guardedPytest(pytest, cwd, '--continue-on-collection-errors');
    // pytest's summary counts reports; the guard's record counts them as it does.
    expect(printed.report.printed).toMatchObject({ passed: 2, failed: 4, skipped: 2 });
    expect(recordsOf(gate)[0]?.tests).toEqual({ passed: 2, failed: 4, skipped: 2 });
    // The view counts tests: one whose teardown failed is one failed test.
    expect(printed.report).toMatchObject({ view: 'inside', passed: 1, failed: 4, skipped: 2, total: 7 });
    expect(namedTests(gate).find((t) => t.name === 'test_setup_error')?.message).toBe('RuntimeError: setup');
  });

  it('caps a failure’s message and traceback', async () => {
    const long = 'def test_long():\n    raise ValueError("x" * 5000 + "\\n" + "y" * 20000)\n';
    const gate = await guardedPytest(pytest, pytestProject({ 'tests/test_long.py': long }, false), '');
    const [test] = namedTests(gate);
    expect(test?.message?.length).toBe(2000);
    expect(test?.message).toMatch(/^ValueError: x{1984}\n\.\.\.$/);
    expect(test?.stack?.length).toBe(8000);
    expect(test?.stack).toMatch(/y\n\ntests\/test_long.py:2: ValueError$/);
  });
});

const XDIST = PYTESTS.filter((p) => p.plugins.xdist);
const RERUNS = PYTESTS.filter((p) => p.plugins.rerunfailures);
const sorted = (lines: string[]) => [...lines].sort();

describe.each(XDIST.map((p) => [`pytest ${p.major} (${p.python})`, p] as const))('pytest-xdist at %s', (_, pytest) => {
  const plugins = pluginOptions(pytest, ['xdist', 'subtests']);

  it('has each worker record its own tests, and its controller none of them', async () => {
    const cwd = pytestProject({ 'tests/test_broken.py': 'def broken(:\n' });
    const gate = await guardedPytest(pytest, cwd, `-n 2 --continue-on-collection-errors ${plugins}`);
    const records = recordsOf(gate);
    expect(records.length).toBe(3);
    expect(records.every((r) => r.complete && r.events.length === 0 && countsMatchCases(r))).toBe(true);
    // The controller: only the collection error, which every worker met and xdist reported once.
    expect(records[0]?.cases).toEqual([
      {
        file: null,
        titles: ['tests/test_broken.py'],
        outcome: 'failed',
        message: expect.any(String),
        stack: expect.any(String),
      },
    ]);
    expect(records.slice(1).every((r) => (r.cases ?? []).length > 0)).toBe(true);
    const expected = ['tests/test_broken.py failed', ...matrixView(pytest.major, pytest.plugins.subtests)];
    expect(sorted(viewLines(gate))).toEqual(sorted(expected));
    expect(gate.report).toMatchObject({ passed: 5, failed: 3, skipped: 1 });
  });

  it('has the controller record the tests of a worker that found no key left', async () => {
    const cwd = pytestProject();
    const dir = mkdtempSync(join(tmpdir(), 'fixloop-pyguard-pool-'));
    const dirs = { code: join(dir, 'code'), records: join(dir, 'records') };
    mkdirSync(dirs.code);
    mkdirSync(dirs.records);
    try {
      const command = `${pytest.python} -m pytest -p no:cacheprovider -q -n 2 ${plugins}`;
      const asked = await pytestGuard.ask(
        { command, env: {}, packageScripts: {}, root: cwd, testFiles: [], runnerVariables: RUNNER_VARIABLE_SOURCES },
        dirs,
      );
      // Two keys in all: the controller's and one worker's (a fresh pipe in place of the guard's).
      await readTakenKeys(dirs.records);
      rmSync(join(dirs.records, 'keys.fifo'));
      issueKeys(dirs.records, 2);
      spawnSync('sh', ['-c', command], { cwd, env: { ...process.env, ...asked?.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' } });
      const payloads = readdirSync(dirs.records)
        .filter((name) => name.startsWith('record-'))
        .map(
          (name) =>
            JSON.parse(
              (JSON.parse(readFileSync(join(dirs.records, name), 'utf8')) as { payload: string }).payload,
            ) as GuardRecord,
        );
      expect(payloads.length).toBe(2);
      expect(payloads.every((r) => r.complete && countsMatchCases(r) && (r.cases ?? []).length > 0)).toBe(true);
      const named = payloads.flatMap((r) => (r.cases ?? []).map(pytestTestCase)).map((t) => `${t.id} ${t.status}`);
      expect(sorted(named)).toEqual(sorted(matrixView(pytest.major, pytest.plugins.subtests)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(RERUNS.map((p) => [`pytest ${p.major} (${p.python})`, p] as const))('pytest-rerunfailures at %s', (_, pytest) => {
  it('records a rerun test once, as its last try ended', async () => {
    const flaky = [
      'import os',
      '',
      '',
      'def test_flaky(tmp_path_factory):',
      '    mark = os.path.join(str(tmp_path_factory.getbasetemp().parent), "tried")',
      '    tried = os.path.exists(mark)',
      '    open(mark, "w").close()',
      '    assert tried',
      '',
      '',
      'def test_broken():',
      '    assert False',
      '',
    ].join('\n');
    const cwd = pytestProject({ 'tests/test_flaky.py': flaky }, false);
    // pytest-rerunfailures 10 declares xdist's hooks as its own: it loads with xdist only.
    const gate = await guardedPytest(pytest, cwd, `--reruns 1 ${pluginOptions(pytest, ['xdist', 'rerunfailures'])}`);
    expect(gate.output).toMatch(/1 failed, 1 passed, 2 rerun/);
    expect(viewLines(gate)).toEqual(['tests/test_flaky.py::test_flaky passed', 'tests/test_flaky.py::test_broken failed']);
    expect(recordsOf(gate)[0]?.tests).toEqual({ passed: 1, failed: 1, skipped: 0 });
  });
});
