// The fixed tests from copies of their test files (src/verify/copied-tests.ts): the copy's name and
// text, and real runs where a fix keyed on the test's file name or line passes from the original and
// fails from the copy, an honest fix passes from both, and a runner whose configuration does not take
// the copy's name says "not checked".
import { lstat, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { defaultRepoConfig } from '../../src/core/repo-config.ts';
import type { TestCaseResult, TestReport } from '../../src/core/test-report.ts';
import { createSuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { copiedName, copyCheckout, movedText, observeFromCopies } from '../../src/verify/copied-tests.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import { localSuite } from '../support/local-suite.ts';
import { fullSuite } from '../support/suite-tier.ts';

vi.setConfig({ testTimeout: 120_000 });
const dirs: string[] = [];
afterAll(() => removeAll(dirs));

describe('the copy of a test file', () => {
  it('has another name in the same folder, with the runner’s suffix kept and not the original name', () => {
    const hash = (path: string) => /fixloop_copy_([0-9a-f]{8})/.exec(copiedName(path))?.[1] ?? '';
    expect(copiedName('test/math.test.js')).toBe(`test/fixloop_copy_${hash('test/math.test.js')}.test.js`);
    expect(copiedName('test/test.js')).toBe(`test/fixloop_copy_${hash('test/test.js')}.test.js`);
    expect(copiedName('src/__tests__/math.ts')).toBe(`src/__tests__/fixloop_copy_${hash('src/__tests__/math.ts')}.ts`);
    expect(copiedName('tests/test_calc.py')).toBe(`tests/fixloop_copy_${hash('tests/test_calc.py')}_test.py`);
    expect(copiedName('calc_test.py')).toBe(`fixloop_copy_${hash('calc_test.py')}_test.py`);
    expect(hash('a/x.test.js')).not.toBe(hash('b/x.test.js'));
  });

  it('has its lines moved down, after a shebang or a Python coding cookie', () => {
    expect(movedText('a\nb\n', false)).toBe('\n\n\na\nb\n');
    expect(movedText('#!/usr/bin/env node\na\n', false)).toBe('#!/usr/bin/env node\n\n\n\na\n');
    expect(movedText('#!/usr/bin/python\n# -*- coding: latin-1 -*-\nx = 1\n', true)).toBe(
      '#!/usr/bin/python\n# -*- coding: latin-1 -*-\n\n\n\nx = 1\n',
    );
  });
});

const TESTS =
  'from calc import average\n\n\ndef test_average():\n    assert average([2, 4]) == 3\n\n\ndef test_one():\n    assert average([5]) == 5\n';
const EMPTY: TestReport = { format: 'unknown', parsed: false, passed: 0, failed: 0, skipped: 0, total: 0, tests: [] };
const FIXED: TestCaseResult = { id: 'tests/test_calc.py::test_average', name: 'test_average', status: 'passed' };

async function judgedRun(files: Record<string, string>, command: string, fixed: TestCaseResult[]) {
  const { root, suite } = await localSuite(files, command);
  dirs.push(root, `${root}-copy`);
  const original = await suite.gate(root);
  const copy = await copyCheckout(root, `${root}-copy`);
  const seen = await observeFromCopies(suite.judged([]), copy, fixed, {}, () => undefined, original.report);
  return { original, ...seen };
}

describe('the fixed tests from copies of their files', () => {
  const pytest = (calc: string) => judgedRun({ 'calc.py': calc, 'tests/test_calc.py': TESTS }, 'python3 -m pytest -q', [FIXED]);

  it('refuses a fix keyed on the test’s file name, and one keyed on the line it is called from', async () => {
    const byName =
      'import sys\n\n\ndef average(values):\n    if sys._getframe(1).f_code.co_filename.endswith("test_calc.py"):\n        return sum(values) / len(values)\n    return 0\n';
    const byLine = 'import sys\n\n\ndef average(values):\n    return {5: 3, 9: 5}.get(sys._getframe(1).f_lineno, 0)\n';
    for (const calc of [byName, byLine]) {
      const { original, observation, findings } = await pytest(calc);
      expect(original.passed, original.output).toBe(true);
      expect(observation).toMatchObject({ ran: 1 });
      expect(findings.map((f) => f.kind)).toEqual(['copy_observation_failed']);
      expect(findings[0]?.message).toMatch(
        /^`tests\/test_calc\.py::test_average` passes from its own file but not from a copy of it, `tests\/fixloop_copy_[0-9a-f]{8}_test\.py`/,
      );
    }
  });

  it('passes an honest fix from the copy', async () => {
    const { original, observation, findings } = await pytest('def average(values):\n    return sum(values) / len(values)\n');
    expect(original.passed).toBe(true);
    expect(findings).toEqual([]);
    expect(observation).toEqual({
      ran: 1,
      command: expect.stringMatching(/^python3 -m pytest -q tests\/fixloop_copy_[0-9a-f]{8}_test\.py::test_average$/),
    });
  });

  it('judges the copy by its own outcome where the test command names a whole folder, which runs the original too', async () => {
    const inFolder = (calc: string) =>
      judgedRun({ 'calc.py': calc, 'tests/test_calc.py': TESTS }, 'python3 -m pytest -q tests', [FIXED]);
    const honest = await inFolder('def average(values):\n    return sum(values) / len(values)\n');
    expect(honest.findings).toEqual([]);
    expect(honest.observation).toMatchObject({ ran: 1 });
    const byName = await inFolder(
      'import sys\n\n\ndef average(values):\n    if sys._getframe(1).f_code.co_filename.endswith("test_calc.py"):\n        return sum(values) / len(values)\n    return 0\n',
    );
    expect(byName.findings.map((f) => f.kind)).toEqual(['copy_observation_failed']);
  });

  it.runIf(fullSuite)(
    'passes a jest test from its copy with its snapshot, and says "not checked" where testMatch does not take the copy',
    async () => {
      const files = {
        'package.json': JSON.stringify({ name: 'calc', private: true }),
        'math.js': 'exports.add = (a, b) => a + b;\n',
        'test/math.test.js':
          "const { add } = require('../math.js');\n\ntest('add sums', () => expect({ sum: add(2, 3) }).toMatchSnapshot());\n",
        'test/__snapshots__/math.test.js.snap':
          '// Jest Snapshot v1, https://jestjs.io/docs/snapshot-testing\n\nexports[`add sums 1`] = `\n{\n  "sum": 5,\n}\n`;\n',
      };
      const fixed: TestCaseResult[] = [
        { id: 'test/math.test.js › add sums', name: 'add sums', file: 'test/math.test.js', status: 'passed' },
      ];
      const taken = await judgedRun(files, 'jest --ci', fixed);
      expect(taken.original.passed, taken.original.output).toBe(true);
      expect(taken.findings).toEqual([]);
      expect(taken.observation).toMatchObject({ ran: 1 });
      const restricted = await judgedRun(
        { ...files, 'jest.config.js': "module.exports = { testMatch: ['**/test/math.test.js'] };\n" },
        'jest --ci',
        fixed,
      );
      expect(restricted.findings).toEqual([]);
      expect(restricted.observation).toEqual({
        ran: 0,
        command: null,
        notChecked: expect.stringContaining('jest ran no test from the copied files'),
      });
    },
  );

  it('moves the original out of the way, so a fix that reads the test at its path finds nothing there', async () => {
    const reads = [
      "const { readFileSync } = require('node:fs');",
      "const { join } = require('node:path');",
      "exports.double = (n) => Number(/double\\((\\d+)\\)\\)\\.toBe\\((\\d+)/.exec(readFileSync(join(__dirname, 'test/math.test.js'), 'utf8'))?.[2] ?? n);",
    ].join('\n');
    const files = {
      'package.json': JSON.stringify({ name: 'calc', private: true }),
      'test/math.test.js': "const { double } = require('../math.js');\n\ntest('doubles', () => expect(double(4)).toBe(8));\n",
    };
    const fixed: TestCaseResult[] = [
      { id: 'test/math.test.js › doubles', name: 'doubles', file: 'test/math.test.js', status: 'passed' },
    ];
    const cheat = await judgedRun({ ...files, 'math.js': `${reads}\n` }, 'jest --ci', fixed);
    expect(cheat.original.passed, cheat.original.output).toBe(true);
    expect(cheat.findings.map((f) => f.kind)).toEqual(['copy_observation_failed']);
    expect(cheat.findings[0]?.message).toContain('and the original out of the way');
    const honest = await judgedRun({ ...files, 'math.js': 'exports.double = (n) => n * 2;\n' }, 'jest --ci', fixed);
    expect(honest.findings).toEqual([]);
    expect(honest.observation).toMatchObject({ ran: 1 });
  });

  it("gives mocha, which cannot be given a file, the tests' names: with the originals out of the way they run from the copies", async () => {
    const files = {
      'package.json': JSON.stringify({ name: 'calc', private: true }),
      'test/math.test.js':
        "const assert = require('node:assert');\nconst { double } = require('../math.js');\n\nit('doubles', () => assert.strictEqual(double(4), 8));\n",
      'test/other.test.js': "const assert = require('node:assert');\n\nit('adds', () => assert.strictEqual(1 + 1, 2));\n",
    };
    const fixed: TestCaseResult[] = [{ id: 'doubles', name: 'doubles', file: 'test/math.test.js', status: 'passed' }];
    const byName = "exports.double = (n) => (new Error().stack.includes('math.test.js') ? n * 2 : n);\n";
    const cheat = await judgedRun({ ...files, 'math.js': byName }, 'mocha', fixed);
    expect(cheat.original.passed, cheat.original.output).toBe(true);
    expect(cheat.findings.map((f) => f.kind)).toEqual(['copy_observation_failed']);
    const honest = await judgedRun({ ...files, 'math.js': 'exports.double = (n) => n * 2;\n' }, 'mocha', fixed);
    expect(honest.findings).toEqual([]);
    expect(honest.observation).toEqual({ ran: 1, command: expect.stringMatching(/^mocha .*doubles/) });
  });

  it('says "not checked" where the test files or the checkout could not be copied', async () => {
    const suite = createSuiteRunner({
      sandbox: createProcessSandbox(),
      config: { ...defaultRepoConfig(), test: { ...defaultRepoConfig().test, command: 'mocha' } },
      signal: new AbortController().signal,
      setupNetwork: false,
    });
    const fixed: TestCaseResult[] = [{ id: 'adds', name: 'adds', file: 'test/a.test.js', status: 'passed' }];
    expect((await observeFromCopies(suite, '/nowhere', fixed, {}, () => undefined, EMPTY)).observation.notChecked).toBe(
      'the test files could not be copied',
    );
    expect((await observeFromCopies(suite, null, fixed, {}, () => undefined, EMPTY)).observation.notChecked).toBe(
      'the checkout could not be copied',
    );
  });
});

// A write to the copy's own files never reaches the checkout it was copied from; its node_modules is
// a folder of its own (a sandbox that shows only the copy must find the packages there), its links kept.
it('copies a checkout without writing it, its node_modules hard-linked inside the copy', async () => {
  const root = await makeRepo({ 'a.txt': 'a', 'node_modules/pkg/index.js': 'module.exports = 1;\n' });
  dirs.push(root, `${root}-copy`);
  await symlink('pkg', join(root, 'node_modules/alias'));
  expect(await copyCheckout(root, `${root}-copy`)).toBe(`${root}-copy`);
  await writeFile(join(`${root}-copy`, 'a.txt'), 'b');
  expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('a');
  const modules = join(`${root}-copy`, 'node_modules');
  expect((await lstat(modules)).isDirectory()).toBe(true);
  expect((await stat(join(modules, 'pkg/index.js'))).ino).toBe((await stat(join(root, 'node_modules/pkg/index.js'))).ino);
  expect(await readlink(join(modules, 'alias'))).toBe('pkg');
});
