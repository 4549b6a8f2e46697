// The branch a failing test skipped, found from the passing test that took it: synthetic spectra for
// the rules, then a real pytest run where the faulty condition runs in every test (Ochiai ranks it
// with everything else) and the failing test is a variant of a passing one.
import { afterAll, describe, expect, it } from 'vitest';
import { localizeFaults } from '../../../../src/engines/repair/localize/localize-faults.ts';
import { nameTwin, skippedBranches } from '../../../../src/engines/repair/localize/skipped-branches.ts';
import type { TestSpectrum } from '../../../../src/engines/repair/localize/ochiai.ts';
import { runGate } from '../../../../src/gate/run-gate.ts';
import { createProcessSandbox } from '../../../../src/sandbox/process-sandbox.ts';
import { createTestFileMatcher } from '../../../../src/workspace/path-policy.ts';
import { DEFAULT_PROTECTED_PATHS } from '../../../../src/core/repo-config.ts';
import { makeRepo, removeAll } from '../../../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const spectrum = (id: string, failed: boolean, lines: number[], file = 'a.py'): TestSpectrum => ({
  id,
  failed,
  lines: new Map([[file, new Set(lines)]]),
});

const A_PY = [
  'def scan(tokens):', //  1
  '    seen = False', //   2
  '    for t in tokens:', // 3
  "        if t == 'AS':", // 4
  '            seen = True', // 5
  '    x = 1', //            6
  '    return seen', //      7
];

describe('skippedBranches', () => {
  it('points at the condition above a block the nearest passing test ran and the failing test skipped', () => {
    const spectra = [
      spectrum('t::fails', true, [2, 3, 4, 6, 7]),
      spectrum('t::passes', false, [2, 3, 4, 5, 6, 7]),
      spectrum('t::other', false, [2, 3, 6, 7]),
    ];
    expect(skippedBranches(spectra, () => A_PY)).toEqual([{ file: 'a.py', line: 4, score: 5 / 6, byName: false }]);
    // The same pair, the passing test now named as the failing one's twin.
    const twins = [spectrum('t::test_alias_lower', true, [2, 3, 4, 6, 7]), spectrum('t::test_alias', false, [2, 3, 4, 5, 6, 7])];
    expect(skippedBranches(twins, () => A_PY)).toEqual([{ file: 'a.py', line: 4, score: 5 / 6, byName: true }]);
  });

  it('finds no turn above a skipped function body, in a file the failing test never entered, or past its window', () => {
    const inFunction = ['def a():', '    if x:', '        pass', 'def b():', '    return 2'];
    // Line 5 is b's body: whoever calls b decided that, not a's condition on line 2.
    expect(skippedBranches([spectrum('t::f', true, [2, 3]), spectrum('t::p', false, [2, 3, 5])], () => inFunction)).toEqual([]);
    const elsewhere: TestSpectrum = {
      id: 't::p',
      failed: false,
      lines: new Map([
        ['a.py', new Set([2, 3, 4, 6, 7])],
        ['b.py', new Set([1])],
      ]),
    };
    expect(skippedBranches([spectrum('t::f', true, [2, 3, 4, 6, 7]), elsewhere], () => A_PY)).toEqual([]);
    expect(
      skippedBranches(
        [spectrum('t::fails', true, [2, 3, 4, 6, 7]), spectrum('t::passes', false, [2, 3, 4, 5, 6, 7])],
        () => A_PY,
        { window: 0 },
      ),
    ).toEqual([]);
  });

  it('ignores passing tests below the similarity floor, and comments that read like conditions', () => {
    expect(skippedBranches([spectrum('t::f', true, [4]), spectrum('t::p', false, [4, 5, 6, 7, 1, 2, 3])], () => A_PY)).toEqual(
      [],
    );
    const js = ['function f(a) {', '  let n = 0; // zero or more', '  n++;', '}'];
    expect(
      skippedBranches([spectrum('t > f', true, [1, 2, 4], 'a.js'), spectrum('t > p', false, [1, 2, 3, 4], 'a.js')], () => js),
    ).toEqual([]);
  });

  it('prefers the passing test whose name the failing test extends, in the same file or suite', () => {
    const tests = ['tests/t.py::test_alias_ctas', 'tests/t.py::test_create_table', 'tests/u.py::test_alias_ctas_lowercase'].map(
      (id) => ({ test: spectrum(id, false, []) }),
    );
    expect(nameTwin('tests/t.py::test_alias_ctas_lowercase_as', tests)?.test.id).toBe('tests/t.py::test_alias_ctas');
    expect(nameTwin('tests/t.py::test_create_view', tests.slice(2))).toBeNull();
    // Sharing the file's common prefix is no kinship; the last word or the parameters alone are.
    expect(nameTwin('tests/t.py::test_alias_view', tests.slice(1))).toBeNull();
    expect(nameTwin('tests/t.py::test_create_view', tests)?.test.id).toBe('tests/t.py::test_create_table');
    expect(
      nameTwin('tests/t.py::test_numbers[e1-None]', [{ test: spectrum('tests/t.py::test_numbers[1e-12-Float]', false, []) }]),
    ).not.toBeNull();
    expect(
      nameTwin('Array > #indexOf() > returns -1 when absent', [
        { test: spectrum('Array > #indexOf() > returns -1 when absent at the end', false, []) },
      ]),
    ).not.toBeNull();
  });
});

describe('the skipped branch in a real pytest run', () => {
  it('ranks a case-sensitive condition that every test runs first, from the upper-case twin of the failing test', async () => {
    const tests = [
      'from scan import scan',
      '',
      'def test_alias_upper():',
      "    assert scan(['CREATE', 'AS', 'SELECT']) is True",
      '',
      'def test_alias_lowercase():',
      "    assert scan(['create', 'as', 'select']) is True",
      '',
      ...Array.from({ length: 6 }, (_, i) => [`def test_plain_${i}():`, `    assert scan(['t${i}']) is False`, '']).flat(),
    ].join('\n');
    const dir = await makeRepo({ 'scan.py': `${A_PY.join('\n')}\n`, 'tests/test_scan.py': tests });
    dirs.push(dir);
    const sandbox = createProcessSandbox();
    const gate = await runGate(sandbox, { command: 'python3 -m pytest -q', cwd: dir, timeoutMs: 60_000 });
    const failing = gate.report.tests.filter((t) => t.status === 'failed');
    expect(failing.map((t) => t.id)).toEqual(['tests/test_scan.py::test_alias_lowercase']);
    const lines = await localizeFaults({
      root: dir,
      files: ['scan.py', 'tests/test_scan.py'],
      failing,
      output: gate.output,
      hints: [],
      isTestFile: createTestFileMatcher(DEFAULT_PROTECTED_PATHS),
      coverage: {
        sandbox,
        testCommand: 'python3 -m pytest -q',
        tests: gate.report.tests,
        env: {},
        suiteMs: gate.durationMs,
        deadline: Date.now() + 60_000,
        signal: new AbortController().signal,
      },
    });
    expect(lines[0]).toMatchObject({ file: 'scan.py', line: 4, signals: expect.arrayContaining(['ochiai', 'skipped']) });
  });
});
