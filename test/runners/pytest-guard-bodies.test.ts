// pytest's runtime guard wraps each test function for its call (src/runners/pytest/guard/_bodies.py),
// live, at pytest 9 (pyenv's python3) and pytest 7 (Debian's): each test's case says what its body did
// (returned, raised and what), for plain functions, parametrized ones, methods whose fixtures read their
// instance, skips, xfails and unittest.TestCase tests; the outcomes stay pytest's own; and code under
// test that rewrites a failed report as passed (a plugin it registers at run time with a first hook
// wrapper, a profile function that edits the report in place) leaves a passed case whose body raised.
// Under xdist each worker's guard records its own tests' bodies.
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import { isSubtestDescription } from '../../src/runners/pytest/subtest-id.ts';
import {
  PYTESTS,
  guardedPytest,
  pluginOptions,
  pytestProject,
  recordsOf,
  removePytestProjects,
} from '../support/pytest-guard-run.ts';

vi.setConfig({ testTimeout: 120_000 });
afterAll(() => removePytestProjects());

const CALC = 'def add(a, b):\n    return a - b\n';

const TESTS = [
  'import unittest',
  '',
  'import pytest',
  '',
  'from calc import add',
  '',
  '',
  'def test_adds():',
  '    assert add(2, 3) == 5',
  '',
  '',
  'def test_returns():',
  '    assert True',
  '',
  '',
  '@pytest.mark.parametrize("a", [1, 2])',
  'def test_param(a):',
  '    assert a',
  '',
  '',
  'def test_skips():',
  '    pytest.skip("not here")',
  '',
  '',
  '@pytest.mark.xfail(strict=False)',
  'def test_xfails():',
  '    assert False',
  '',
  '',
  'def test_fixture(tmp_path):',
  '    assert tmp_path.exists()',
  '',
  '',
  'class TestInClass:',
  '    base = 3',
  '',
  '    @pytest.fixture',
  '    def value(self):',
  '        return self.base',
  '',
  '    def test_method(self, value):',
  '        assert value == self.base',
  '',
  '',
  'class TestCaseStyle(unittest.TestCase):',
  '    def test_unit(self):',
  '        self.assertEqual(1, 1)',
  '',
  '    def test_unit_fails(self):',
  '        self.assertEqual(add(1, 1), 2)',
  '',
  '    def test_sub(self):',
  '        for i in range(2):',
  '            with self.subTest(i=i):',
  '                self.assertLess(i, 2)',
  '',
].join('\n');

/** A plugin registered by the code under test as it is imported, whose first hook wrapper turns a failed call into a pass. */
const REGISTERS_FLIPPING_PLUGIN = [
  'import gc',
  '',
  'import pytest',
  '',
  '',
  'class _Flip:',
  '    @pytest.hookimpl(hookwrapper=True, tryfirst=True)',
  '    def pytest_runtest_makereport(self, item, call):',
  '        outcome = yield',
  '        report = outcome.get_result()',
  '        if report.when == "call" and report.failed:',
  '            report.outcome = "passed"',
  '            report.longrepr = None',
  '',
  '',
  'for _manager in gc.get_objects():',
  '    if type(_manager).__name__ == "PytestPluginManager":',
  '        _manager.register(_Flip(), "flip")',
  '        break',
  '',
  '',
].join('\n');

/** A profile function that turns each failed call's report into a pass as pytest's report maker returns it. */
const PROFILE_EDITS_REPORTS = [
  'import sys',
  '',
  '',
  'def _profile(frame, event, arg):',
  '    if event == "return" and frame.f_code.co_name == "pytest_runtest_makereport":',
  '        if getattr(arg, "when", None) == "call" and getattr(arg, "outcome", None) == "failed":',
  '            arg.outcome = "passed"',
  '            arg.longrepr = None',
  '',
  '',
  'sys.setprofile(_profile)',
  '',
  '',
].join('\n');

/** A plugin registered at run time whose call hook, first in line, says the test ran without calling it. */
const SKIPS_THE_CALL = REGISTERS_FLIPPING_PLUGIN.replace(
  [
    '    @pytest.hookimpl(hookwrapper=True, tryfirst=True)',
    '    def pytest_runtest_makereport(self, item, call):',
    '        outcome = yield',
    '        report = outcome.get_result()',
    '        if report.when == "call" and report.failed:',
    '            report.outcome = "passed"',
    '            report.longrepr = None',
  ].join('\n'),
  '    @pytest.hookimpl(tryfirst=True)\n    def pytest_pyfunc_call(self, pyfuncitem):\n        return True',
);

/** Each test's case (subtests apart) as `id outcome body raised`. */
function bodies(gate: GateResult): string[] {
  return recordsOf(gate)
    .flatMap((r) => r.cases ?? [])
    .filter((c) => !isSubtestDescription(c.titles.at(-1) ?? ''))
    .map((c) => [[c.file, ...c.titles].join('::'), c.outcome, c.body ?? '-', c.raised ?? ''].join(' ').trim());
}

const ONE_TEST = 'from calc import add\n\n\ndef test_adds():\n    assert add(2, 3) == 5\n';

describe.each(PYTESTS.map((p) => [`pytest ${p.major} (${p.python})`, p] as const))('%s', (_, pytest) => {
  it("says what each test's body did, and keeps pytest's outcomes", async () => {
    const cwd = pytestProject({ 'calc.py': CALC, 'tests/test_bodies.py': TESTS }, false);
    const gate = await guardedPytest(pytest, cwd, '-q');
    const id = (name: string) => `tests/test_bodies.py::${name}`;
    // In the order pytest ran them (unittest's methods by name).
    expect(bodies(gate)).toEqual([
      expect.stringMatching(new RegExp(`^${id('test_adds')} failed raised AssertionError: assert -1 == 5`)),
      `${id('test_returns')} passed returned`,
      `${id('test_param[1]')} passed returned`,
      `${id('test_param[2]')} passed returned`,
      `${id('test_skips')} skipped raised Skipped: not here`,
      expect.stringMatching(new RegExp(`^${id('test_xfails')} skipped raised AssertionError`)),
      `${id('test_fixture')} passed returned`,
      `${id('TestInClass::test_method')} passed returned`,
      `${id('TestCaseStyle::test_sub')} passed returned`,
      `${id('TestCaseStyle::test_unit')} passed returned`,
      `${id('TestCaseStyle::test_unit_fails')} failed raised AssertionError: 0 != 2`,
    ]);
    expect(gate.output).toMatch(/2 failed, 7 passed, 1 skipped, 1 xfailed/);
  });

  it('sees the body raise under a plugin registered at run time that rewrites the report first', async () => {
    const cwd = pytestProject({ 'calc.py': REGISTERS_FLIPPING_PLUGIN + CALC, 'tests/test_calc.py': ONE_TEST }, false);
    const gate = await guardedPytest(pytest, cwd, '-q');
    expect(gate.output).toMatch(/1 passed/);
    expect(bodies(gate)).toEqual([
      expect.stringMatching(/^tests\/test_calc.py::test_adds passed raised AssertionError: assert -1 == 5/),
    ]);
  });

  it('sees the body raise under a profile function that edits the report in place', async () => {
    const cwd = pytestProject({ 'calc.py': PROFILE_EDITS_REPORTS + CALC, 'tests/test_calc.py': ONE_TEST }, false);
    const gate = await guardedPytest(pytest, cwd, '-q');
    expect(gate.output).toMatch(/1 passed/);
    expect(bodies(gate)).toEqual([
      expect.stringMatching(/^tests\/test_calc.py::test_adds passed raised AssertionError: assert -1 == 5/),
    ]);
  });
});

describe.each(PYTESTS.map((p) => [`pytest ${p.major} (${p.python})`, p] as const))('%s, the wrapper bypassed', (_, pytest) => {
  it('leaves a test whose function was never called unseen', async () => {
    expect(SKIPS_THE_CALL).toContain('pytest_pyfunc_call');
    const cwd = pytestProject({ 'calc.py': SKIPS_THE_CALL + CALC, 'tests/test_calc.py': ONE_TEST }, false);
    const gate = await guardedPytest(pytest, cwd, '-q');
    expect(gate.output).toMatch(/1 passed/);
    expect(bodies(gate)).toEqual(['tests/test_calc.py::test_adds passed unseen']);
  });
});

const ASYNC_TESTS = [
  'import pytest',
  '',
  'from calc import add',
  '',
  '',
  '@pytest.mark.asyncio',
  'async def test_adds():',
  '    assert add(2, 3) == 5',
  '',
  '',
  '@pytest.mark.asyncio',
  'async def test_subtracts():',
  '    assert add(2, 2) == 0',
  '',
].join('\n');

// pytest-asyncio runs a coroutine test through its own synchronous wrapper; the guard's wrapper must
// see the coroutine's end (its raise), not only the call that made it. Debian's 0.20 is .ci/run's.
describe.each(PYTESTS.filter((p) => p.plugins.asyncio).map((p) => [`pytest ${p.major} (${p.python})`, p] as const))(
  'pytest-asyncio at %s',
  (_, pytest) => {
    it("says what each async test's body did, raised or returned", async () => {
      const cwd = pytestProject({ 'calc.py': CALC, 'tests/test_async.py': ASYNC_TESTS }, false);
      const gate = await guardedPytest(pytest, cwd, `-q ${pluginOptions(pytest, ['asyncio'])}`);
      expect(gate.output).toMatch(/1 failed, 1 passed/);
      expect(bodies(gate)).toEqual([
        expect.stringMatching(/^tests\/test_async.py::test_adds failed raised AssertionError: assert -1 == 5/),
        'tests/test_async.py::test_subtracts passed returned',
      ]);
    });
  },
);

describe.each(PYTESTS.filter((p) => p.plugins.xdist).map((p) => [`pytest ${p.major} (${p.python})`, p] as const))(
  'pytest-xdist at %s',
  (_, pytest) => {
    it("has each worker record its tests' bodies", async () => {
      const cwd = pytestProject({ 'calc.py': CALC, 'tests/test_bodies.py': TESTS }, false);
      const gate = await guardedPytest(pytest, cwd, `-n 2 ${pluginOptions(pytest, ['xdist'])}`);
      const lines = bodies(gate);
      expect(lines).toHaveLength(11);
      expect(lines).toContain('tests/test_bodies.py::test_returns passed returned');
      expect(lines).toContainEqual(expect.stringMatching(/test_adds failed raised AssertionError/));
    });
  },
);
