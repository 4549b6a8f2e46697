// The Node guard's own wrapper of each test's body (src/runners/node-guard/guard-bodies.cjs), in real
// runs of node --test and mocha (fixloop's own versions): each test's case says what its body did
// (returned, raised and what, or unseen), whatever the body's style (a promise, a callback, a subtest,
// none at all); the wrapper is transparent (the same outcomes as an unguarded run); and code under
// test that rewrites a failure as a pass (node's harness reached through its async resources, mocha's
// emitter) or bypasses the wrapper leaves a passed case whose body raised or went unseen.
import { FLIPS_MOCHA_EMITTER, FLIPS_NODE_HARNESS } from '../fixtures/outcome-flips.ts';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { GuardTestCase } from '../../src/core/guard-record.ts';
import { project, removeProjects, runIn, type GuardedRun } from '../support/guarded-run.ts';

afterAll(() => removeProjects());
vi.setConfig({ testTimeout: 120_000 });

const ESM = JSON.stringify({ name: 'calc', private: true, type: 'module' }) + '\n';

const NODE_TESTS = [
  "import assert from 'node:assert/strict';",
  "import test, { describe, it } from 'node:test';",
  "import { add } from '../src/math.js';",
  "test('adds', () => assert.equal(add(2, 3), 5));",
  "test('calls back', (t, done) => setImmediate(done));",
  "test('calls back an error', (t, done) => setImmediate(() => done(new Error('late'))));",
  "test('resolves', async () => { await new Promise((r) => setImmediate(r)); });",
  "test('has no body');",
  "describe('suite', () => {\n  it('inner', () => {});\n  it.skip('skipped', () => { throw new Error('never'); });\n});",
  "test('parent', async (t) => { await t.test('child', () => {}); });",
  '',
].join('\n');

const MOCHA_TESTS = [
  "import assert from 'node:assert/strict';",
  "import { add } from '../src/math.js';",
  "it('adds', () => assert.equal(add(2, 3), 5));",
  "it('calls back', (done) => setImmediate(done));",
  "it('calls back an error', (done) => setImmediate(() => done(new Error('late'))));",
  "it('resolves', async () => { await new Promise((r) => setImmediate(r)); });",
  "let tries = 0;\nit('retried', function () {\n  this.retries(1);\n  tries++;\n  assert.equal(tries, 2);\n});",
  "describe('suite', () => {\n  it('inner', function () { assert.equal(this.test.title, 'inner'); });\n  it.skip('skipped', () => { throw new Error('never'); });\n});",
  '',
].join('\n');

const ADD = 'export function add(a, b) {\n  return a - b;\n}\n';
const FIXED = 'export function add(a, b) {\n  return a + b;\n}\n';

/** The bodies run straight, around the guard's wrapper: every test passes as it would, unseen. */
const BYPASSES_NODE_WRAPPER = [
  "import { AsyncResource } from 'node:async_hooks';",
  'const run = AsyncResource.prototype.runInAsyncScope;',
  'AsyncResource.prototype.runInAsyncScope = function (fn, self, ...args) {',
  "  if (this.constructor.name === 'Test' && this.fn === fn) return fn.apply(self, args);",
  '  return run.call(this, fn, self, ...args);',
  '};',
  '',
].join('\n');

/** Each case as `titles outcome body raised`. */
function bodies(run: GuardedRun): string[] {
  const line = (c: GuardTestCase) => [c.titles.join(' > '), c.outcome, c.body ?? '-', c.raised ?? ''].join(' | ').trim();
  return run.records.flatMap((r) => r.cases ?? []).map(line);
}

describe("the Node guard's wrapper of each test's body", () => {
  it('under node --test: returned, raised and what, for every style of body; no body for a skipped test', async () => {
    const root = project({ 'package.json': ESM, 'src/math.js': ADD, 'test/math.test.js': NODE_TESTS });
    const run = await runIn(root, 'node-test', ['node', '--test'], true);
    expect(bodies(run).sort()).toEqual(
      [
        'adds | failed | raised | AssertionError: Expected values to be strictly equal:\n\n-1 !== 5',
        'calls back | passed | returned |',
        'calls back an error | failed | raised | Error: late',
        'resolves | passed | returned |',
        'has no body | passed | returned |',
        'suite > inner | passed | returned |',
        'suite > skipped | skipped | - |',
        'parent | passed | returned |',
        'parent > child | passed | returned |',
      ].sort(),
    );
    // Transparent: the runner ends every test as it does unguarded.
    const plain = await runIn(root, 'node-test', ['node', '--test'], false);
    expect(plain.code).toBe(run.code);
    expect(plain.output.match(/^# (pass|fail|skipped) \d+$/gm)).toEqual(run.output.match(/^# (pass|fail|skipped) \d+$/gm));
  });

  it('under node --test: a failure the harness was made to count as a pass is a passed test whose body raised; a bypassed wrapper leaves it unseen', async () => {
    const tests =
      "import assert from 'node:assert/strict';\nimport test from 'node:test';\nimport { add } from '../src/math.js';\ntest('adds', () => assert.equal(add(2, 3), 5));\n";
    const flipped = project({ 'package.json': ESM, 'src/math.js': FLIPS_NODE_HARNESS + ADD, 'test/math.test.js': tests });
    const run = await runIn(flipped, 'node-test', ['node', '--test'], true);
    expect(run.code).toBe(0);
    expect(bodies(run)).toEqual([expect.stringMatching(/^adds \| passed \| raised \| AssertionError: Expected values/)]);
    const bypassed = project({ 'package.json': ESM, 'src/math.js': BYPASSES_NODE_WRAPPER + FIXED, 'test/math.test.js': tests });
    expect(bodies(await runIn(bypassed, 'node-test', ['node', '--test'], true))).toEqual(['adds | passed | unseen |']);
  });

  it('under mocha: returned, raised and what, a retried test by its last try; the same outcomes as unguarded', async () => {
    const root = project({ 'package.json': ESM, 'src/math.js': ADD, 'test/math.test.js': MOCHA_TESTS });
    const run = await runIn(root, 'mocha', ['mocha'], true);
    expect(bodies(run).sort()).toEqual(
      [
        'adds | failed | raised | AssertionError: Expected values to be strictly equal:\n\n-1 !== 5',
        'calls back | passed | returned |',
        'calls back an error | failed | raised | Error: late',
        'resolves | passed | returned |',
        'retried | passed | returned |',
        'suite > inner | passed | returned |',
        'suite > skipped | skipped | - |',
      ].sort(),
    );
    const plain = await runIn(root, 'mocha', ['mocha'], false);
    expect(plain.code).toBe(run.code);
    expect(plain.output.match(/^\s+\d+ (passing|failing|pending)/gm)).toEqual(
      run.output.match(/^\s+\d+ (passing|failing|pending)/gm),
    );
  });

  it("under mocha: a 'fail' emitted as a 'pass' is a passed test whose body raised", async () => {
    const tests =
      "import assert from 'node:assert/strict';\nimport { add } from '../src/math.js';\nit('adds', () => assert.equal(add(2, 3), 5));\n";
    const root = project({ 'package.json': ESM, 'src/math.js': FLIPS_MOCHA_EMITTER + ADD, 'test/math.test.js': tests });
    const run = await runIn(root, 'mocha', ['mocha'], true);
    expect(run.code).toBe(0);
    expect(bodies(run)).toEqual([expect.stringMatching(/^adds \| passed \| raised \| AssertionError: Expected values/)]);
  });
});
