// Per-test V8 coverage for real mocha and jest suites started by `npm test`, and for a real `node --test`
// suite, each in one run: the spectra single out the faulty line even though mocha's report names no file and
// no frame points into the source.
import { symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectSpectra } from '../../../../src/engines/repair/localize/collect-spectra.ts';
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

const CLAMP = [
  "'use strict';",
  'module.exports = function clamp(value, low, high) {',
  '  if (value < low) return low;',
  '  if (value > high) return low;',
  '  return value;',
  '};',
  '',
].join('\n');

const TESTS = [
  "const assert = require('assert');",
  "const clamp = require('..');",
  "describe('clamp', () => {",
  "  it('keeps a value inside', () => assert.strictEqual(clamp(5, 0, 10), 5));",
  "  it('raises a value below', () => assert.strictEqual(clamp(-3, 0, 10), 0));",
  "  it('lowers a value above', () => assert.strictEqual(clamp(42, 0, 10), 10));",
  '});',
  '',
].join('\n');

describe('spectra of a mocha suite', () => {
  it("takes each test's V8 coverage in one run through npm test, and ranks the faulty line first", async () => {
    const root = await makeRepo({
      'package.json': JSON.stringify({ name: 'clampish', main: 'index.js', scripts: { test: 'mocha' } }),
      'index.js': CLAMP,
      'test/clamp.js': TESTS,
    });
    dirs.push(root);
    // The project's mocha: fixloop's own, as an installed dependency would be.
    await symlink(resolve(import.meta.dirname, '../../../../node_modules'), join(root, 'node_modules'));
    const output = failingRunOutput('npm', ['test'], root);
    const report = parseTestOutput(output);
    expect(report).toMatchObject({ format: 'mocha', passed: 2, failed: 1 });

    const coverage = {
      sandbox: createProcessSandbox(),
      testCommand: 'npm test',
      tests: report.tests,
      passedCount: report.passed,
      packageScripts: { test: 'mocha' },
      env: {},
      suiteMs: 2000,
      deadline: Date.now() + 120_000,
      signal: new AbortController().signal,
    };
    const spectra = await collectSpectra({ ...coverage, root });
    expect(spectra?.map((s) => [s.failed, [...(s.lines.get('index.js') ?? [])].sort((a, b) => a - b)])).toEqual([
      // Each test's own path through clamp; lines 1 and 2 ran when the module loaded, before any test.
      [false, [3, 4, 5, 6]],
      [false, [3, 6]],
      [true, [3, 4, 6]],
    ]);

    const failing = report.tests.filter((t) => t.status === 'failed');
    const lines = await localizeFaults({
      root,
      files: ['package.json', 'index.js', 'test/clamp.js'],
      failing,
      output,
      hints: [],
      isTestFile,
      coverage,
    });
    // Line 4 is also the condition above line 5, which the nearest passing test ran and the failing one skipped.
    expect(lines[0]).toMatchObject({ file: 'index.js', line: 4, signals: ['imported', 'ochiai', 'skipped'] });
  });
});

const GREET = [
  "'use strict';",
  'exports.greet = function greet(name) {',
  "  if (name === '') return 'hello, nobody';",
  "  return 'hello ' + name + '!';",
  '};',
  'exports.unused = function unused() {',
  "  return 'never';",
  '};',
  '',
].join('\n');
const CLI_TESTS = [
  "const assert = require('assert');",
  "const { execFileSync } = require('child_process');",
  "const cli = (...args) => execFileSync(process.execPath, ['cli.js', ...args], { encoding: 'utf8' }).trim();",
  "it('greets by name through the CLI', () => assert.strictEqual(cli('ann'), 'hello, ann!'));",
  // As a child killed while writing its coverage would leave it: a file cut short, beside this test's.
  "it('counts the arguments', () => {",
  '  const { FIXLOOP_SPECTRA_OUT: out, FIXLOOP_SPECTRA_TEST: test } = process.env;',
  "  if (out && test) require('fs').writeFileSync(`${out}/${test}.child-1.json`, '{\"scripts\": [{\"url');",
  '  assert.strictEqual(process.argv.length > 0, true);',
  '});',
  '',
].join('\n');

describe('spectra of a test that runs the code in a process of its own', () => {
  it("counts what the spawned process ran as the test's, by whole functions; a child's file cut short costs only that child", async () => {
    const root = await makeRepo({
      'package.json': JSON.stringify({ name: 'greeter', scripts: { test: 'mocha' } }),
      'greet.js': GREET,
      'cli.js': "console.log(require('./greet.js').greet(process.argv[2]));\n",
      'test/cli.js': CLI_TESTS,
    });
    dirs.push(root);
    await symlink(resolve(import.meta.dirname, '../../../../node_modules'), join(root, 'node_modules'));
    const report = parseTestOutput(failingRunOutput('npm', ['test'], root));
    expect(report).toMatchObject({ format: 'mocha', passed: 1, failed: 1 });
    const spectra = await collectSpectra({
      root,
      sandbox: createProcessSandbox(),
      testCommand: 'npm test',
      tests: report.tests,
      passedCount: report.passed,
      packageScripts: { test: 'mocha' },
      env: {},
      suiteMs: 2000,
      deadline: Date.now() + 120_000,
      signal: new AbortController().signal,
    });
    const byTest = new Map(spectra?.map((s) => [s.id, s]));
    // The CLI's own line, and greet's whole body (best-effort coverage has no blocks); not the function it never called.
    expect([...(byTest.get('greets by name through the CLI')?.lines.get('greet.js') ?? [])].sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    expect(byTest.get('greets by name through the CLI')?.lines.get('cli.js')).toEqual(new Set([1]));
    // Its own body only (the broken file beside it names no script at all).
    expect([...(byTest.get('counts the arguments')?.lines.keys() ?? [])]).toEqual(['test/cli.js']);
  });
});

const NODE_TESTS = [
  "const { describe, it } = require('node:test');",
  "const assert = require('node:assert');",
  "const clamp = require('../index.js');",
  "describe('clamp', () => {",
  // More tests than one process per test would ever be allowed (24): the hook takes them in one run.
  '  for (let i = 0; i < 30; i++) it(`keeps ${i} inside`, () => assert.strictEqual(clamp(i, 0, 100), i));',
  "  describe('outside', () => {",
  "    it('raises a value below', () => assert.strictEqual(clamp(-3, 0, 10), 0));",
  "    it('lowers a value above', () => assert.strictEqual(clamp(42, 0, 10), 10));",
  '  });',
  '});',
  '',
].join('\n');

describe('spectra of a node --test suite', () => {
  it("takes each test's V8 coverage in one run, under the names the report gives, and ranks the faulty line first", async () => {
    const root = await makeRepo({
      'package.json': JSON.stringify({ name: 'clampish', scripts: { test: 'node --test' } }),
      'index.js': CLAMP,
      'test/clamp.test.js': NODE_TESTS,
    });
    dirs.push(root);
    const output = failingRunOutput('node', ['--test'], root);
    const report = parseTestOutput(output);
    expect(report).toMatchObject({ passed: 31, failed: 1 });

    const coverage = {
      sandbox: createProcessSandbox(),
      testCommand: 'node --test',
      tests: report.tests,
      passedCount: report.passed,
      env: {},
      suiteMs: 2000,
      deadline: Date.now() + 120_000,
      signal: new AbortController().signal,
    };
    const spectra = await collectSpectra({ ...coverage, root });
    expect(spectra).toHaveLength(32);
    // One spectrum per reported test, under the report's own name for it.
    expect(new Set(spectra?.map((s) => s.id))).toEqual(new Set(report.tests.map((t) => t.id)));
    const byName = new Map(spectra?.map((s) => [s.id, s]));
    const failingId = report.tests.find((t) => t.status === 'failed')?.id ?? '';
    expect(failingId).toBe('clamp > outside > lowers a value above');
    expect([...(byName.get(failingId)?.lines.get('index.js') ?? [])].sort((a, b) => a - b)).toEqual([3, 4, 6]);
    expect(
      [...(byName.get('clamp > outside > raises a value below')?.lines.get('index.js') ?? [])].sort((a, b) => a - b),
    ).toEqual([3, 6]);

    const failing = report.tests.filter((t) => t.status === 'failed');
    const lines = await localizeFaults({
      root,
      files: ['package.json', 'index.js', 'test/clamp.test.js'],
      failing,
      output,
      hints: [],
      isTestFile,
      coverage,
    });
    expect(lines[0]).toMatchObject({ file: 'index.js', line: 4 });
    expect(lines[0]?.signals).toContain('ochiai');
  });
});

const JEST_TESTS = [
  "const clamp = require('../index.js');",
  "describe('clamp', () => {",
  "  test('keeps a value inside', () => expect(clamp(5, 0, 10)).toBe(5));",
  "  test('raises a value below', () => expect(clamp(-3, 0, 10)).toBe(0));",
  "  test('lowers a value above', () => expect(clamp(42, 0, 10)).toBe(10));",
  '});',
  '',
].join('\n');

describe('spectra of a jest suite', () => {
  it("takes each test's V8 coverage in one run, reads babel's output through its source map, and ranks the faulty line first", async () => {
    // Blank lines and a comment that babel's reprint moves: offsets into its output are not the file's.
    const source = ['// clamp', '', CLAMP].join('\n');
    const root = await makeRepo({
      'package.json': JSON.stringify({ name: 'clampish', scripts: { test: 'jest' } }),
      'index.js': source,
      'test/clamp.test.js': JEST_TESTS,
    });
    dirs.push(root);
    await symlink(resolve(import.meta.dirname, '../../../../node_modules'), join(root, 'node_modules'));
    const env = { PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}` };
    const output = failingRunOutput('npm', ['test'], root, env);
    const report = parseTestOutput(output);
    expect(report).toMatchObject({ format: 'jest', passed: 2, failed: 1 });

    const coverage = {
      sandbox: createProcessSandbox(),
      testCommand: 'npm test',
      tests: report.tests,
      passedCount: report.passed,
      packageScripts: { test: 'jest' },
      env: { PATH: env.PATH },
      suiteMs: 4000,
      deadline: Date.now() + 120_000,
      signal: new AbortController().signal,
    };
    const spectra = await collectSpectra({ ...coverage, root });
    const byName = new Map(spectra?.map((s) => [s.id, s]));
    // The closing `};` (line 8) is left out: babel's map gives its brace to whichever block V8 ended in.
    const linesOf = (id: string) =>
      [...(byName.get(id)?.lines.get('index.js') ?? [])].filter((l) => l !== 8).sort((a, b) => a - b);
    // Each test's own path through clamp, in the file's own line numbers (the function starts at 4).
    expect(linesOf('clamp > keeps a value inside')).toEqual([5, 6, 7]);
    expect(linesOf('clamp > raises a value below')).toEqual([5]);
    expect(linesOf('clamp > lowers a value above')).toEqual([5, 6]);
    expect(byName.get('clamp > lowers a value above')?.failed).toBe(true);

    const failing = report.tests.filter((t) => t.status === 'failed');
    const lines = await localizeFaults({
      root,
      files: ['package.json', 'index.js', 'test/clamp.test.js'],
      failing,
      output,
      hints: [],
      isTestFile,
      coverage,
    });
    expect(lines[0]).toMatchObject({ file: 'index.js', line: 6 });
    expect(lines[0]?.signals).toContain('ochiai');
  });
});

const CLAMP_TS = [
  "// clamp, typed: esbuild drops the types, so offsets into what ran are not the file's",
  'export interface Bounds {',
  '  low: number;',
  '  high: number;',
  '}',
  '',
  'export function clamp(value: number, { low, high }: Bounds): number {',
  '  if (value < low) return low;',
  '  if (value > high) return low;',
  '  return value;',
  '}',
  '',
].join('\n');

const VITEST_TESTS = [
  "import { describe, expect, it } from 'vitest';",
  "import { clamp } from '../src/clamp.ts';",
  "describe('clamp', () => {",
  "  it('keeps a value inside', () => expect(clamp(5, { low: 0, high: 10 })).toBe(5));",
  "  it('raises a value below', () => expect(clamp(-3, { low: 0, high: 10 })).toBe(0));",
  "  it('lowers a value above', () => expect(clamp(42, { low: 0, high: 10 })).toBe(10));",
  '});',
  '',
].join('\n');

/** A vitest project run by `npm test` with `script`, borrowing fixloop's vitest; its failing run's output, report and coverage input. */
async function vitestProject(script: string, tests: Record<string, string>) {
  const root = await makeRepo({
    'package.json': JSON.stringify({ name: 'clampish', type: 'module', scripts: { test: script } }),
    'src/clamp.ts': CLAMP_TS,
    ...tests,
  });
  dirs.push(root);
  await symlink(resolve(import.meta.dirname, '../../../../node_modules'), join(root, 'node_modules'));
  const env = { PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}` };
  const output = failingRunOutput('npm', ['test'], root, env);
  const report = parseTestOutput(output);
  const coverage = {
    sandbox: createProcessSandbox(),
    testCommand: 'npm test',
    tests: report.tests,
    passedCount: report.passed,
    packageScripts: { test: script },
    env,
    suiteMs: 4000,
    deadline: Date.now() + 120_000,
    signal: new AbortController().signal,
  };
  return { root, output, report, coverage };
}

describe('spectra of a vitest suite', () => {
  it("takes each test's V8 coverage in one run, traces vitest's transform back to the file's lines, under the report's names, and ranks the faulty line first", async () => {
    const { root, output, report, coverage } = await vitestProject('vitest run', { 'test/clamp.test.ts': VITEST_TESTS });
    expect(report).toMatchObject({ format: 'vitest', passed: 2, failed: 1 });

    const spectra = await collectSpectra({ ...coverage, root });
    const byName = new Map(spectra?.map((s) => [s.id, s]));
    // The names the report gives the tests, so the spectra meet the report's failures.
    expect([...byName.keys()].sort()).toEqual(report.tests.map((t) => t.id).sort());
    // The closing brace (line 11) is left out: the map gives it to whichever block V8 ended in.
    const linesOf = (name: string) =>
      [...(byName.get(`test/clamp.test.ts > clamp > ${name}`)?.lines.get('src/clamp.ts') ?? [])]
        .filter((l) => l !== 11)
        .sort((a, b) => a - b);
    // Each test's own path through clamp, in the file's own line numbers.
    expect(linesOf('keeps a value inside')).toEqual([8, 9, 10]);
    expect(linesOf('raises a value below')).toEqual([8]);
    expect(linesOf('lowers a value above')).toEqual([8, 9]);
    expect(byName.get('test/clamp.test.ts > clamp > lowers a value above')?.failed).toBe(true);

    const failing = report.tests.filter((t) => t.status === 'failed');
    const lines = await localizeFaults({
      root,
      files: ['package.json', 'src/clamp.ts', 'test/clamp.test.ts'],
      failing,
      output,
      hints: [],
      isTestFile,
      coverage,
    });
    expect(lines[0]).toMatchObject({ file: 'src/clamp.ts', line: 9 });
    expect(lines[0]?.signals).toContain('ochiai');
  });
});

describe('spectra of a vitest suite in worker threads', () => {
  it('keeps the tests of each thread apart: every test of the report has its own spectrum', async () => {
    const more = VITEST_TESTS.replace("describe('clamp'", "describe('clamp again'");
    const { root, report, coverage } = await vitestProject('vitest run --pool=threads', {
      'test/clamp.test.ts': VITEST_TESTS,
      'test/again.test.ts': more,
    });
    expect(report).toMatchObject({ format: 'vitest', passed: 4, failed: 2 });

    const spectra = await collectSpectra({ ...coverage, root });
    expect(spectra?.map((s) => s.id).sort()).toEqual(report.tests.map((t) => t.id).sort());
    const failed = spectra
      ?.filter((s) => s.failed)
      .map((s) => [s.id, [...(s.lines.get('src/clamp.ts') ?? [])].filter((l) => l !== 11).sort((a, b) => a - b)]);
    expect(failed).toEqual([
      [expect.stringContaining('lowers a value above'), [8, 9]],
      [expect.stringContaining('lowers a value above'), [8, 9]],
    ]);
  });
});
