// Coverage of code that the test command generates (a bundle built before the tests run) is traced back
// to the repository's own source lines: the faulty line is found in the file a fix must change.
import { afterAll, describe, expect, it } from 'vitest';
import { codeKey, traceGeneratedLines } from '../../../../src/engines/repair/localize/generated-code.ts';
import { localizeFaults } from '../../../../src/engines/repair/localize/localize-faults.ts';
import { parseTestOutput } from '../../../../src/gate/parse-test-output.ts';
import { createProcessSandbox } from '../../../../src/sandbox/process-sandbox.ts';
import { createTestFileMatcher } from '../../../../src/workspace/path-policy.ts';
import { DEFAULT_PROTECTED_PATHS } from '../../../../src/core/repo-config.ts';
import { makeRepo, removeAll } from '../../../support/git-fixture.ts';
import { failingRunOutput } from '../../../support/suite-output.ts';

const isTestFile = createTestFileMatcher(DEFAULT_PROTECTED_PATHS);
const dirs: string[] = [];
afterAll(() => removeAll(dirs));

describe('codeKey', () => {
  it('keeps the code of a line without its layout, and nothing of lines too short to say where they came from', () => {
    expect(codeKey('    this._set("width",   v);')).toBe('this._set("width", v)');
    expect(codeKey('\tthis._set("width", v)')).toBe('this._set("width", v)');
    expect(codeKey('  }')).toBeNull();
    expect(codeKey('  return x;')).toBeNull();
    expect(codeKey('  // a comment long enough')).toBeNull();
  });
});

describe('traceGeneratedLines', () => {
  it("moves each generated line's score to the source lines with the same code, the highest score where several meet, and drops common lines", async () => {
    const common = '    return callback(error);';
    const root = await makeRepo({
      'src/a.js': ['function a(v) {', '  this._set("width", v);', common, '}', ''].join('\n'),
      'src/b.js': ['function b(v) {', common, '}', ''].join('\n'),
      'src/c.js': [common, common, ''].join('\n'),
      'build/out.js': ['// built', 'this._set("width", v);', '  this._set("width", v);', common, ''].join('\n'),
    });
    dirs.push(root);
    const traced = await traceGeneratedLines(
      root,
      [
        { file: 'build/out.js', line: 2, score: 0.4 },
        { file: 'build/out.js', line: 3, score: 0.6 },
        { file: 'build/out.js', line: 4, score: 0.9 },
      ],
      ['src/a.js', 'src/b.js', 'src/c.js'],
    );
    // The common line appears four times in the sources: it says nothing of where the code came from.
    expect(traced).toEqual([{ file: 'src/a.js', line: 2, score: 0.6 }]);
  });
});

const BUILD = [
  "const { readFileSync, writeFileSync, mkdirSync, readdirSync } = require('node:fs');",
  "mkdirSync('dist', { recursive: true });",
  "const parts = readdirSync('src').sort().map((f) => readFileSync('src/' + f, 'utf8'));",
  "writeFileSync('dist/bundle.js', parts.join('\\n') + '\\nmodule.exports = { clamp, scale };\\n');",
  '',
].join('\n');

const CLAMP = [
  'function clamp(value, low, high) {',
  '  if (value < low) return low;',
  '  if (value > high) return low;',
  '  return value;',
  '}',
  '',
].join('\n');
const SCALE = [
  'function scale(value, factor) {',
  '  const scaled = value * factor;',
  '  return clamp(scaled, 0, 100);',
  '}',
  '',
].join('\n');

const TESTS = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const { clamp, scale } = require('../dist/bundle.js');",
  "test('keeps a value inside', () => assert.strictEqual(clamp(5, 0, 10), 5));",
  "test('raises a value below', () => assert.strictEqual(clamp(-3, 0, 10), 0));",
  "test('scales within range', () => assert.strictEqual(scale(2, 3), 6));",
  "test('lowers a value above', () => assert.strictEqual(clamp(42, 0, 10), 10));",
  '',
].join('\n');

describe('localization through a bundle the test command builds', () => {
  it('ranks the faulty line of the source file first, and no line of the bundle', async () => {
    const root = await makeRepo({
      '.gitignore': 'dist/\n',
      'build.js': BUILD,
      'src/clamp.js': CLAMP,
      'src/scale.js': SCALE,
      'test/bundle.test.js': TESTS,
    });
    dirs.push(root);
    const testCommand = 'node build.js && node --test';
    const output = failingRunOutput('sh', ['-c', testCommand], root);
    const report = parseTestOutput(output);
    expect(report).toMatchObject({ passed: 3, failed: 1 });

    const coverage = {
      sandbox: createProcessSandbox(),
      testCommand,
      tests: report.tests,
      passedCount: report.passed,
      env: {},
      suiteMs: 2000,
      deadline: Date.now() + 120_000,
      signal: new AbortController().signal,
    };
    const failing = report.tests.filter((t) => t.status === 'failed');
    const files = ['.gitignore', 'build.js', 'src/clamp.js', 'src/scale.js', 'test/bundle.test.js'];
    const lines = await localizeFaults({ root, files, failing, output, hints: [], isTestFile, coverage });
    expect(lines[0]).toMatchObject({ file: 'src/clamp.js', line: 3, signals: ['ochiai-generated'] });
    expect(lines.some((l) => l.file.startsWith('dist/'))).toBe(false);
  });
});
