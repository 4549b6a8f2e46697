// The Node runtime guard names each test it sees end (GuardRecord.cases), in real runs of node --test,
// mocha, jest and vitest (fixloop's own versions) on a project of two test files with nested suites,
// a failing assertion, a skipped test and, where the runner retries, a test that fails once and then
// passes: each test once, with its final outcome, named through the runner's guard as the runner's
// own output parser names it, and the failure with its message and stack. The same under a quiet
// reporter, where the output no longer names the tests. (Every reporter, at the oldest and newest
// versions: the conformance matrix, test/runners/conformance.test.ts.)
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import { parseTestOutput } from '../../src/gate/parse-test-output.ts';
import { guardOf, project, removeProjects, runIn, testsOf, type GuardedRun } from '../support/guarded-run.ts';

afterAll(() => removeProjects());
// Real runners on a 2-core machine shared with other runs.
vi.setConfig({ testTimeout: 120_000 });

const CJS = JSON.stringify({ name: 'calc', private: true }) + '\n';
const MATH = [
  "describe('math', () => {",
  "  it('adds', () => { assert.strictEqual(1 + 1, 2); });",
  "  it('multiplies', () => { assert.strictEqual(2 * 2, 5); });",
  "  describe('rounding', () => {",
  "    it('rounds down', () => { assert.strictEqual(Math.round(1.4), 1); });",
  "    it.skip('rounds half to even', () => { assert.strictEqual(Math.round(2.5), 2); });",
  '  });',
  '});',
  '',
].join('\n');
const TEXT = "describe('text', () => {\n  it('joins words', () => { assert.strictEqual(['a', 'b'].join(' '), 'a b'); });\n});\n";
/** Fails at its first try, passes at its second: `retry` is how the runner is told to try it twice. */
const flaky = (retry: string) => `let tries = 0;\n${retry}('flaky', () => { tries++; assert.strictEqual(tries, 2); });\n`;
const ASSERT = "const assert = require('node:assert');\n";

/** The tests a run's records name, through the runner's guard. */
function named(run: GuardedRun, runner: string): TestCaseResult[] {
  const testCase = guardOf(runner).testCase;
  if (!testCase) throw new Error(`${runner}: its guard names no tests`);
  return run.records.flatMap((r) => r.cases ?? []).map((c) => testCase(c));
}

/**
 * The run's records: complete, counting what they name, each test once; the failure with its message
 * and stack; each test the output's parser names, named alike.
 */
function expectNamed(run: GuardedRun, runner: string, ids: Record<string, string>, parsedFrom?: string): TestCaseResult[] {
  expect(run.records.every((r) => r.complete && r.cases !== undefined)).toBe(true);
  const tests = named(run, runner);
  expect(Object.fromEntries(tests.map((t) => [t.id, t.status]))).toEqual(ids);
  expect(tests).toHaveLength(Object.keys(ids).length);
  const counts = testsOf(run);
  expect(counts).toEqual({
    passed: tests.filter((t) => t.status === 'passed').length,
    failed: tests.filter((t) => t.status === 'failed').length,
    skipped: tests.filter((t) => t.status === 'skipped').length,
  });
  const failed = tests.find((t) => t.status === 'failed');
  expect(failed?.message).toMatch(/5/);
  expect(failed?.message).not.toMatch(/\n\s+at /);
  expect(failed?.stack).toMatch(/test\/math\.test\.js:\d+/);
  if (parsedFrom !== undefined) {
    const parsed = parseTestOutput(parsedFrom);
    expect(parsed.tests.length).toBeGreaterThan(0);
    for (const test of parsed.tests)
      expect(tests.find((t) => t.id === test.id)).toMatchObject({ name: test.name, status: test.status });
  }
  return tests;
}

describe('the Node guard names each test', () => {
  it('under node --test, in the process of each file, under the spec and the dot reporters', async () => {
    const head = "const { describe, it } = require('node:test');\n" + ASSERT;
    const root = project({ 'package.json': CJS, 'test/math.test.js': head + MATH, 'test/text.test.js': head + TEXT });
    const ids = {
      'math > adds': 'passed',
      'math > multiplies': 'failed',
      'math > rounding > rounds down': 'passed',
      'math > rounding > rounds half to even': 'skipped',
      'text > joins words': 'passed',
    };
    const spec = await runIn(root, 'node-test', ['node', '--test', '--test-reporter=spec'], true);
    const tests = expectNamed(spec, 'node-test', ids, spec.output);
    expect(tests.find((t) => t.status === 'failed')).toMatchObject({ file: 'test/math.test.js' });
    const dot = await runIn(root, 'node-test', ['node', '--test', '--test-reporter=dot'], true);
    expect(dot.output).not.toContain('adds');
    expectNamed(dot, 'node-test', ids);
  });

  it("under node --test, a file whose process reports no test as node's parent reports it: one test named by its path, by its exit", async () => {
    // Node 24 reports no test a --test-name-pattern leaves out, and a file with no test() at all
    // reports none: node's parent process then reports the file itself as one test.
    const head = "const { describe, it } = require('node:test');\n" + ASSERT;
    const root = project({
      'package.json': CJS,
      'test/math.test.js': head + MATH,
      'test/text.test.js': head + TEXT,
      'test/plain.test.js': ASSERT + 'assert.strictEqual(1 + 1, 2);\n',
      'test/broken.test.js': ASSERT + 'assert.strictEqual(1 + 1, 3);\n',
    });
    const run = await runIn(
      root,
      'node-test',
      ['node', '--test', '--test-reporter=spec', '--test-name-pattern=joins words'],
      true,
    );
    expect(run.records.every((r) => r.complete)).toBe(true);
    const tests = named(run, 'node-test');
    expect(Object.fromEntries(tests.map((t) => [t.id, t.status]))).toEqual({
      'test/broken.test.js': 'failed',
      'test/math.test.js': 'passed',
      'test/plain.test.js': 'passed',
      'text > joins words': 'passed',
    });
    // As the runner's own summary counts them, and as its output names them.
    expect(testsOf(run)).toEqual({ passed: 3, failed: 1, skipped: 0 });
    const parsed = parseTestOutput(run.output);
    expect([parsed.passed, parsed.failed]).toEqual([3, 1]);
    for (const test of parsed.tests) expect(tests.find((t) => t.id === test.id)).toMatchObject({ status: test.status });
  });

  it('under mocha, a retried test by its last try, under the spec and the dot reporters', async () => {
    const root = project({
      'package.json': CJS,
      'test/math.test.js': ASSERT + MATH,
      'test/text.test.js': ASSERT + TEXT + flaky('it').replace('() => {', 'function () {\n  this.retries(1);\n '),
    });
    const ids = {
      'math > adds': 'passed',
      'math > multiplies': 'failed',
      'math > rounding > rounds down': 'passed',
      'math > rounding > rounds half to even': 'skipped',
      'text > joins words': 'passed',
      flaky: 'passed',
    };
    const spec = await runIn(root, 'mocha', ['mocha'], true);
    expectNamed(spec, 'mocha', ids, spec.output);
    const dot = await runIn(root, 'mocha', ['mocha', '--reporter', 'dot'], true);
    expect(dot.output).not.toContain('adds');
    expectNamed(dot, 'mocha', ids);
  });

  it("under mocha, a failed hook as mocha's reports name it, the tests it kept from running unnamed", async () => {
    const hooked =
      "describe('outer', () => {\n  describe('hooked', () => {\n    beforeEach(() => { throw new Error('setup broke'); });\n    it('never runs', () => {});\n    it('nor this', () => {});\n  });\n  it('runs', () => {});\n});\n";
    const root = project({ 'package.json': CJS, 'test/hooks.test.js': hooked });
    const run = await runIn(root, 'mocha', ['mocha'], true);
    const tests = named(run, 'mocha');
    expect(tests.map((t) => [t.id, t.status, t.message])).toEqual([
      ['outer > runs', 'passed', undefined],
      ['outer > hooked > "before each" hook for "never runs"', 'failed', 'setup broke'],
    ]);
    expect(parseTestOutput(run.output).tests.map((t) => [t.id, t.status])).toEqual(tests.map((t) => [t.id, t.status]));
    expect(testsOf(run)).toEqual({ passed: 1, failed: 1, skipped: 0 });
  });

  it('under jest, a retried test by its last try, a failed node:assert with its stack apart', async () => {
    const root = project({
      'package.json': CJS,
      'test/math.test.js': ASSERT + MATH,
      'test/text.test.js': ASSERT + 'jest.retryTimes(1);\n' + TEXT + flaky('it'),
    });
    const ids = {
      'test/math.test.js › math › adds': 'passed',
      'test/math.test.js › math › multiplies': 'failed',
      'test/math.test.js › math › rounding › rounds down': 'passed',
      'test/math.test.js › math › rounding › rounds half to even': 'skipped',
      'test/text.test.js › text › joins words': 'passed',
      'test/text.test.js › flaky': 'passed',
    };
    const run = await runIn(root, 'jest', ['jest', '--ci'], true);
    expectNamed(run, 'jest', ids, run.output);
    const silent = await runIn(root, 'jest', ['jest', '--ci', '--silent'], true);
    expectNamed(silent, 'jest', ids);
  });

  it('under vitest, a retried test by its last try, concurrent tests each by its own outcome', async () => {
    const head = "import { describe, it, expect } from 'vitest';\nconst assert = { strictEqual: (a, b) => expect(a).toBe(b) };\n";
    const concurrent =
      "describe('both at once', () => {\n  it.concurrent('waits longer', async () => { await new Promise((r) => setTimeout(r, 50)); assert.strictEqual(1, 1); });\n  it.concurrent('fails sooner', async () => { await new Promise((r) => setTimeout(r, 10)); assert.strictEqual(1, 2); });\n});\n";
    const root = project({
      'package.json': JSON.stringify({ name: 'calc', type: 'module', private: true }),
      'test/math.test.js': head + MATH,
      'test/text.test.js': head + TEXT + flaky('it').replace("'flaky', ", "'flaky', { retry: 1 }, ") + concurrent,
    });
    const ids = {
      'test/math.test.js > math > adds': 'passed',
      'test/math.test.js > math > multiplies': 'failed',
      'test/math.test.js > math > rounding > rounds down': 'passed',
      'test/math.test.js > math > rounding > rounds half to even': 'skipped',
      'test/text.test.js > text > joins words': 'passed',
      'test/text.test.js > flaky': 'passed',
      'test/text.test.js > both at once > waits longer': 'passed',
      'test/text.test.js > both at once > fails sooner': 'failed',
    };
    for (const args of [
      ['vitest', 'run'],
      ['vitest', 'run', '--reporter=dot'],
    ]) {
      const run = await runIn(root, 'vitest', args, true);
      expect(run.records.every((r) => r.complete)).toBe(true);
      const tests = named(run, 'vitest');
      expect(Object.fromEntries(tests.map((t) => [t.id, t.status]))).toEqual(ids);
      expect(tests).toHaveLength(Object.keys(ids).length);
      expect(testsOf(run)).toEqual({ passed: 5, failed: 2, skipped: 1 });
      const multiplies = tests.find((t) => t.name === 'multiplies');
      expect(multiplies?.message).toBe('expected 4 to be 5 // Object.is equality');
      expect(multiplies?.stack).toMatch(/test\/math\.test\.js:\d+/);
      for (const test of parseTestOutput(run.output).tests)
        expect(tests.find((t) => t.id === test.id)).toMatchObject({ name: test.name, status: test.status });
    }
  });

  // A vitest file that takes its `describe` from node:test (the vitest tests inside are vitest's, at
  // the file's top level): node's runner starts and ends that suite in vitest's worker too. Its start
  // is no vitest test still running when the worker is done: the worker's record stays complete and
  // counts vitest's tests, as vitest does (issue 49).
  it("under vitest, a file whose describe is node:test's: complete records, vitest's tests counted", async () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'calc', type: 'module', private: true }),
      'test/math.test.js': "import { it, expect } from 'vitest';\nit('adds', () => expect(1 + 1).toBe(2));\n",
      'test/text.test.js':
        "import { describe } from 'node:test';\nimport { it, expect } from 'vitest';\ndescribe('text', () => {\n  it('joins', () => expect(['a', 'b'].join(' ')).toBe('a b'));\n  it('splits', () => expect('a b'.split(' ')).toEqual(['a', 'b']));\n});\n",
    });
    for (const pool of ['threads', 'forks']) {
      const run = await runIn(root, 'vitest', ['vitest', 'run', `--pool=${pool}`], true);
      expect(run.code, run.output).toBe(0);
      // eslint-disable-next-line no-control-regex
      expect(run.output.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Tests\s+3 passed \(3\)/);
      expect(run.records.map((r) => r.complete)).toEqual(run.records.map(() => true));
      expect(testsOf(run)).toEqual({ passed: 3, failed: 0, skipped: 0 });
      expect(
        named(run, 'vitest')
          .map((t) => t.id)
          .sort(),
      ).toEqual(['test/math.test.js > adds', 'test/text.test.js > joins', 'test/text.test.js > splits']);
    }
  });
});
