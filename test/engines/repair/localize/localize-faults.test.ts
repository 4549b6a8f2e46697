import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { localizeFaults } from '../../../../src/engines/repair/localize/localize-faults.ts';
import { matchRepositoryFile, sourceFrames } from '../../../../src/engines/repair/localize/stack-traces.ts';
import { parseTestOutput } from '../../../../src/gate/parse-test-output.ts';
import { createTestFileMatcher } from '../../../../src/workspace/path-policy.ts';
import { DEFAULT_PROTECTED_PATHS } from '../../../../src/core/repo-config.ts';
import { makeRepo, removeAll } from '../../../support/git-fixture.ts';

const isTestFile = createTestFileMatcher(DEFAULT_PROTECTED_PATHS);
const dirs: string[] = [];
afterAll(() => removeAll(dirs));

function run(cwd: string, command: string, args: string[]): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
}

describe('stack traces', () => {
  it('maps frames printed under another root to repository files by their longest suffix', () => {
    const files = ['src/a.js', 'lib/src/a.js', 'test/a.test.js'];
    expect(matchRepositoryFile('/tmp/fixloop-x/work-fork-1/lib/src/a.js', files)).toBe('lib/src/a.js');
    expect(matchRepositoryFile('file:///elsewhere/src/a.js'.replace('file://', ''), files)).toBe('src/a.js');
    expect(matchRepositoryFile('/x/other.js', files)).toBeNull();
  });

  it('keeps source frames, drops tests, dependencies and node internals, deepest first', () => {
    const trace = [
      'TypeError: boom',
      '    at parse (/tmp/r/node_modules/lib/index.js:1:1)',
      '    at toCents (file:///tmp/r/src/money.js:7:11)',
      '    at total (/tmp/r/src/cart.js:12:5)',
      '    at TestContext.<anonymous> (/tmp/r/test/cart.test.js:4:3)',
      '    at node:internal/test_runner/test:1:1',
    ].join('\n');
    const frames = sourceFrames(trace, ['src/money.js', 'src/cart.js', 'test/cart.test.js'], isTestFile);
    expect(frames).toEqual([
      { file: 'src/money.js', line: 7, depth: 0 },
      { file: 'src/cart.js', line: 12, depth: 1 },
    ]);
  });

  it('reads Python tracebacks with the raise point first', () => {
    const trace =
      'Traceback (most recent call last):\n  File "/w/tests/test_x.py", line 3, in test_x\n    f()\n  File "/w/pkg/x.py", line 9, in f\n    g()\n  File "/w/pkg/y.py", line 2, in g\n    raise ValueError\n';
    expect(
      sourceFrames(trace, ['pkg/x.py', 'pkg/y.py', 'tests/test_x.py'], isTestFile).map((f) => `${f.file}:${f.line}`),
    ).toEqual(['pkg/y.py:2', 'pkg/x.py:9']);
  });
});

describe('localizeFaults on real runs', () => {
  it('ranks the throwing line of a node --test failure first', async () => {
    const dir = await makeRepo({
      'package.json': '{ "type": "module" }\n',
      'src/stack.js': 'export function top(xs) {\n  const last = xs.length;\n  return xs[last].value;\n}\n',
      'test/stack.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { top } from '../src/stack.js';\ntest('top', () => assert.equal(top([{ value: 1 }]), 1));\n",
    });
    dirs.push(dir);
    const report = parseTestOutput(run(dir, process.execPath, ['--test']));
    const failing = report.tests.filter((t) => t.status === 'failed');
    expect(failing).toHaveLength(1);
    const lines = await localizeFaults({
      root: dir,
      files: ['package.json', 'src/stack.js', 'test/stack.test.js'],
      failing,
      output: '',
      hints: [],
      isTestFile,
    });
    expect(lines[0]).toMatchObject({ file: 'src/stack.js', line: 3, signals: expect.arrayContaining(['stack']) });
    // The line above the frame (where `last` is computed) comes right after.
    expect(lines[1]).toMatchObject({ file: 'src/stack.js', line: 2 });
    expect(lines.every((l) => l.file !== 'test/stack.test.js')).toBe(true);
  });

  it('ranks the raising line of a pytest failure first, and falls back to imported files for assertions', async () => {
    const dir = await makeRepo({
      'calc.py': 'def ratio(a, b):\n    return a / (b - b)\n\n\ndef double(x):\n    return x * 3\n',
      'tests/test_calc.py':
        'from calc import ratio, double\n\n\ndef test_ratio():\n    assert ratio(4, 2) == 2\n\n\ndef test_double():\n    assert double(2) == 4\n',
    });
    dirs.push(dir);
    const report = parseTestOutput(run(dir, 'python3', ['-m', 'pytest', '-q']));
    const failing = report.tests.filter((t) => t.status === 'failed');
    const files = ['calc.py', 'tests/test_calc.py'];
    const ratio = await localizeFaults({
      root: dir,
      files,
      failing: failing.filter((t) => t.name === 'test_ratio'),
      output: '',
      hints: [],
      isTestFile,
    });
    expect(ratio[0]).toMatchObject({ file: 'calc.py', line: 2 });
    const double = await localizeFaults({
      root: dir,
      files,
      failing: failing.filter((t) => t.name === 'test_double'),
      output: '',
      hints: [],
      isTestFile,
    });
    expect(double.map((l) => l.file)).toEqual(expect.arrayContaining(['calc.py']));
    expect(double.every((l) => l.signals.includes('imported'))).toBe(true);
  });

  it('follows every test file when the runner names none (mocha), into the package it requires', async () => {
    const dir = await makeRepo({
      'package.json': JSON.stringify({ name: 'clampish', main: 'index.js' }),
      'index.js': 'module.exports = (x, lo, hi) => Math.min(Math.max(x, hi), lo);\n',
      'test/clamp.js': "const clamp = require('..');\nit('clamps', () => {});\n",
    });
    dirs.push(dir);
    const failing = [
      { id: 'clamp clamps', name: 'clamps', status: 'failed' as const, message: 'AssertionError: expected 5 to equal 3' },
    ];
    const lines = await localizeFaults({
      root: dir,
      files: ['package.json', 'index.js', 'test/clamp.js'],
      failing,
      output: '',
      hints: [],
      isTestFile,
    });
    expect(lines).toEqual([
      expect.objectContaining({ file: 'index.js', line: 1, signals: ['imported'] }),
      expect.objectContaining({ file: 'index.js', line: 2 }),
    ]);
  });

  it('ranks the functions a named wrapper calls above the rest of the imported files', async () => {
    const dir = await makeRepo({
      'src/utils.ts':
        "import { parseQuery } from './query';\nexport function getQuery(input: string) {\n  return parseQuery(input.split('?')[1] ?? '');\n}\nexport function unrelated(a: number) {\n  return a + 1;\n}\n",
      'src/query.ts':
        "export function parseQuery(text: string) {\n  const out: Record<string, string> = {};\n  for (const pair of text.split('&')) {\n    const [k, v] = pair.split('=');\n    if (out[k]) continue;\n    out[k] = v;\n  }\n  return out;\n}\nexport const other = 1;\n",
      'test/utils.test.ts': "import { getQuery } from '../src/utils';\n",
    });
    dirs.push(dir);
    const failing = [
      {
        id: 'test/utils.test.ts > getQuery > keeps empty values',
        name: 'getQuery > keeps empty values',
        file: 'test/utils.test.ts',
        status: 'failed' as const,
        message: 'AssertionError',
      },
    ];
    const lines = await localizeFaults({
      root: dir,
      files: ['src/utils.ts', 'src/query.ts', 'test/utils.test.ts'],
      failing,
      output: '',
      hints: [],
      isTestFile,
    });
    const rank = (file: string, line: number) => lines.findIndex((l) => l.file === file && l.line === line);
    expect(lines[0]).toMatchObject({ file: 'src/utils.ts', signals: ['imported', 'named'] });
    expect(lines[rank('src/query.ts', 5)]?.signals).toEqual(['called', 'imported']);
    // The callee's body comes before the lines that only the import reaches.
    expect(rank('src/query.ts', 5)).toBeLessThan(rank('src/utils.ts', 6));
    expect(rank('src/query.ts', 5)).toBeLessThan(rank('src/query.ts', 10));
  });

  it('lets the lines of a failing change dominate, and is deterministic', async () => {
    const dir = await makeRepo({ 'src/a.js': 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n' });
    dirs.push(dir);
    const input = {
      root: dir,
      files: ['src/a.js'],
      failing: [],
      output: 'Error\n    at x (/r/src/a.js:1:1)\n',
      hints: [{ file: 'src/a.js', lines: [3] }],
      isTestFile,
    };
    const first = await localizeFaults(input);
    expect(first[0]).toMatchObject({ line: 3, signals: ['diff'] });
    expect(await localizeFaults(input)).toEqual(first);
  });
});
