import { afterAll, describe, expect, it } from 'vitest';
import { collectSpectra } from '../../../../src/engines/repair/localize/collect-spectra.ts';
import { coveredLines } from '../../../../src/engines/repair/localize/v8-coverage.ts';
import { localizeFaults } from '../../../../src/engines/repair/localize/localize-faults.ts';
import { ochiai } from '../../../../src/engines/repair/localize/ochiai.ts';
import { runGate } from '../../../../src/gate/run-gate.ts';
import { createProcessSandbox } from '../../../../src/sandbox/process-sandbox.ts';
import { createTestFileMatcher } from '../../../../src/workspace/path-policy.ts';
import { DEFAULT_PROTECTED_PATHS } from '../../../../src/core/repo-config.ts';
import { makeRepo, removeAll } from '../../../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));
const sandbox = createProcessSandbox();
const isTestFile = createTestFileMatcher(DEFAULT_PROTECTED_PATHS);

describe('ochiai', () => {
  it('scores lines by failing and passing coverage', () => {
    const spectra = [
      { id: 't1', failed: true, lines: new Map([['a.py', new Set([1, 2, 3])]]) },
      { id: 't2', failed: false, lines: new Map([['a.py', new Set([1, 2])]]) },
      { id: 't3', failed: false, lines: new Map([['a.py', new Set([1])]]) },
    ];
    const scores = ochiai(spectra);
    expect(scores.get('a.py:3')?.score).toBe(1);
    expect(scores.get('a.py:2')?.score).toBeCloseTo(1 / Math.sqrt(2));
    expect(scores.get('a.py:1')?.score).toBeCloseTo(1 / Math.sqrt(3));
  });

  it('turns V8 block ranges into executed lines (the innermost range decides)', () => {
    const source = 'function f(x) {\n  if (x) {\n    return 1;\n  }\n  return 2;\n}\n';
    const ranges = [
      { startOffset: 0, endOffset: source.length, count: 1 },
      { startOffset: source.indexOf('{\n    return 1'), endOffset: source.indexOf('\n  return 2'), count: 0 },
    ];
    expect([...coveredLines(source, ranges)]).toEqual([1, 2, 5, 6]);
  });
});

const SOURCE_LINES =
  'def classify(n):\n    if n < 0:\n        return "negative"\n    if n > 10:\n        return "big"\n    return "small"\n';

describe('spectra from real runs', () => {
  it('ranks the buggy line first for pytest (one traced run)', async () => {
    const dir = await makeRepo({
      'classify.py': SOURCE_LINES,
      'tests/test_classify.py':
        'from classify import classify\n\n\ndef test_negative():\n    assert classify(-1) == "negative"\n\n\ndef test_ten_is_big():\n    assert classify(10) == "big"\n\n\ndef test_small():\n    assert classify(3) == "small"\n',
    });
    dirs.push(dir);
    const spectra = await collectSpectra({
      root: dir,
      sandbox,
      testCommand: 'python3 -m pytest -q',
      tests: [],
      env: {},
      suiteMs: 1000,
      deadline: Date.now() + 60_000,
      signal: new AbortController().signal,
    });
    expect(spectra?.map((s) => [s.id, s.failed])).toEqual([
      ['tests/test_classify.py::test_negative', false],
      ['tests/test_classify.py::test_ten_is_big', true],
      ['tests/test_classify.py::test_small', false],
    ]);
    const gate = await runGate(sandbox, { command: 'python3 -m pytest -q', cwd: dir, timeoutMs: 60_000 });
    const failing = gate.report.tests.filter((t) => t.status === 'failed');
    const lines = await localizeFaults({
      root: dir,
      files: ['classify.py', 'tests/test_classify.py'],
      failing,
      output: gate.output,
      hints: [],
      isTestFile,
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
    expect(lines[0]).toMatchObject({ file: 'classify.py', signals: expect.arrayContaining(['ochiai']) });
    expect([4, 6]).toContain(lines[0]?.line);
  });

  it('collects per-test V8 coverage for node --test, and skips it when the budget is too small', async () => {
    const dir = await makeRepo({
      'package.json': '{ "type": "module" }\n',
      'src/classify.js':
        'export function classify(n) {\n  if (n < 0) {\n    return "negative";\n  }\n  if (n > 10) {\n    return "big";\n  }\n  return "small";\n}\n',
      'test/classify.test.js':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { classify } from '../src/classify.js';\ntest('negative', () => assert.equal(classify(-1), 'negative'));\ntest('ten is big', () => assert.equal(classify(10), 'big'));\ntest('small', () => assert.equal(classify(3), 'small'));\n",
    });
    dirs.push(dir);
    const gate = await runGate(sandbox, { command: 'node --test', cwd: dir, timeoutMs: 60_000 });
    const input = {
      root: dir,
      sandbox,
      testCommand: 'node --test',
      tests: gate.report.tests,
      env: {},
      suiteMs: gate.durationMs,
      signal: new AbortController().signal,
    };
    const spectra = await collectSpectra({ ...input, deadline: Date.now() + 120_000 });
    expect(spectra).toHaveLength(3);
    const failingSpectrum = spectra?.find((s) => s.failed);
    expect([...(failingSpectrum?.lines.get('src/classify.js') ?? [])]).toEqual(expect.arrayContaining([5, 8]));
    expect([...(failingSpectrum?.lines.get('src/classify.js') ?? [])]).not.toContain(3);
    expect(await collectSpectra({ ...input, deadline: Date.now() + 10 })).toBeNull();
    // With no passing test, coverage cannot discriminate: it is not collected at all.
    expect(await collectSpectra({ ...input, passedCount: 0, deadline: Date.now() + 120_000 })).toBeNull();
  });
});
