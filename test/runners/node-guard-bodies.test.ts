// The Node guard's own wrapper of each test's body (src/runners/node-guard/guard-bodies.cjs), in real
// runs of node --test, mocha, jest and vitest (fixloop's own versions): each test's case says what its body did
// (returned, raised and what, or unseen), whatever the body's style (a promise, a callback, a subtest,
// none at all); the wrapper is transparent (the same outcomes as an unguarded run); and code under
// test that rewrites a failure as a pass (node's harness reached through its async resources, mocha's
// emitter, a handler put first in jest's circus, vitest's task result) or bypasses the wrapper leaves a passed case whose body raised or went unseen.
import {
  FLIPS_JEST_CIRCUS,
  FLIPS_MOCHA_EMITTER,
  FLIPS_NODE_HARNESS,
  FLIPS_VITEST_RESULT,
  SWAPS_JEST_TESTS_AS_ADDED,
  SWAPS_MOCHA_TESTS_AS_ADDED,
} from '../fixtures/outcome-flips.ts';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { GuardTestCase } from '../../src/core/guard-record.ts';
import { eventsOf, project, removeProjects, runIn, type GuardedRun } from '../support/guarded-run.ts';

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

const CJS = JSON.stringify({ name: 'calc', private: true }) + '\n';

const JEST_TESTS = [
  "const { add } = require('../src/math.js');",
  'jest.retryTimes(1);',
  "test('adds', () => expect(add(2, 3)).toBe(5));",
  "test('calls back', (done) => { setImmediate(done); });",
  "test('calls back an error', (done) => { setImmediate(() => done(new Error('late'))); });",
  "test('resolves', async () => { await new Promise((r) => setImmediate(r)); });",
  "test.each([[1, 1], [2, 2]])('same %i', (a, b) => expect(a).toBe(b));",
  "test('counts its assertions', () => { expect.assertions(2); expect(1).toBe(1); });",
  "test.failing('marked to fail', () => { throw new Error('known'); });",
  "test.failing('marked to fail but returns', () => {});",
  "let tries = 0;\ntest('retried', () => { tries++; expect(tries).toBe(2); });",
  "test.concurrent('at once', async () => { await new Promise((r) => setTimeout(r, 20)); throw new Error('late'); });",
  "test.concurrent('at once too', async () => { await new Promise((r) => setTimeout(r, 10)); });",
  "describe('suite', () => {",
  "  it('inner', () => {});",
  "  it.skip('skipped', () => { throw new Error('never'); });",
  "  it.todo('later');",
  "  describe('deeper', () => { it('deepest', async () => {}); });",
  '});',
  '',
].join('\n');
const CJS_ADD = 'function add(a, b) {\n  return a - b;\n}\nmodule.exports = { add };\n';

/** jest's body put back under every test circus is about to run, after the environment wrapped it. */
const BYPASSES_JEST_WRAPPER = [
  'const bodies = new WeakMap();',
  "globalThis[Symbol.for('EVENT_HANDLERS')].unshift((event) => {",
  "  if (event.name === 'add_test') bodies.set(event.fn, true);",
  '});',
  "globalThis[Symbol.for('EVENT_HANDLERS')].push((event) => {",
  "  if (event.name === 'test_fn_start') event.test.fn = () => {};",
  '});',
  '',
].join('\n');

const VITEST_TESTS = [
  "import { describe, expect, it, test } from 'vitest';",
  "import { add } from '../src/math.js';",
  "test('adds', () => expect(add(2, 3)).toBe(5));",
  "test('resolves', async () => { await new Promise((r) => setImmediate(r)); });",
  "test.each([[1, 1], [2, 2]])('same %i', (a, b) => expect(a).toBe(b));",
  "test('counts its assertions', () => { expect.assertions(2); expect(1).toBe(1); });",
  "test.fails('marked to fail', () => { expect(1).toBe(2); });",
  "test.fails('marked to fail but returns', () => {});",
  "let tries = 0;\ntest('retried', { retry: 1 }, () => { tries++; expect(tries).toBe(2); });",
  "test('skips itself', (context) => { context.skip(); });",
  "test.concurrent('at once', async ({ expect }) => { await new Promise((r) => setTimeout(r, 20)); expect(1).toBe(2); });",
  "test.concurrent('at once too', async () => { await new Promise((r) => setTimeout(r, 10)); });",
  "describe('suite', () => {",
  "  it('inner', () => {});",
  "  it.skip('skipped', () => { throw new Error('never'); });",
  "  it.todo('later');",
  "  describe('deeper', () => { it('deepest', async () => {}); });",
  '});',
  '',
].join('\n');

/** `WeakMap.prototype.get` made read-only as the source loads: the guard cannot find vitest's map of test functions. */
const BYPASSES_VITEST_WRAPPER =
  "Object.defineProperty(WeakMap.prototype, 'get', { value: WeakMap.prototype.get, writable: false, configurable: false });\n";

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
    // Each test ran the function its file declared (a retry, its clone's).
    expect(eventsOf(run)).toEqual([]);
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

  it('under mocha: a test whose function was swapped as its suite added it is named, though its swapped body returned', async () => {
    const tests =
      "import assert from 'node:assert/strict';\nimport { add } from '../src/math.js';\ndescribe('math', () => it('adds', () => assert.equal(add(2, 3), 5)));\n";
    const root = project({ 'package.json': ESM, 'src/math.js': SWAPS_MOCHA_TESTS_AS_ADDED + ADD, 'test/math.test.js': tests });
    const plain = await runIn(root, 'mocha', ['mocha'], false);
    expect(plain.code, plain.output).toBe(0);
    const run = await runIn(root, 'mocha', ['mocha'], true);
    expect(run.code).toBe(0);
    expect(eventsOf(run)).toEqual([
      'framework_changed ?:? mocha was handed another function for the test `math > adds` than its file declared',
    ]);
  });

  it('under jest: returned, raised and what, each row of test.each, concurrent tests, a retried test by its last try; nothing for a skipped or todo test', async () => {
    const root = project({ 'package.json': CJS, 'src/math.js': CJS_ADD, 'test/math.test.js': JEST_TESTS });
    const run = await runIn(root, 'jest', ['jest', '--ci'], true);
    expect(bodies(run).sort()).toEqual(
      [
        expect.stringMatching(/^adds \| failed \| raised \| Error: expect\(received\)\.toBe\(expected\)/),
        'calls back | passed | returned |',
        'calls back an error | failed | raised | Error: late',
        'resolves | passed | returned |',
        'same 1 | passed | returned |',
        'same 2 | passed | returned |',
        // expect.assertions fails the test after its body returned: an honest failure, no tampering.
        'counts its assertions | failed | returned |',
        // Marked to fail: raising is what its body is to do; a body that returned did not do it.
        'marked to fail | passed | returned |',
        'marked to fail but returns | failed | raised | returned, though the test is marked to fail',
        'retried | passed | returned |',
        'at once | failed | raised | Error: late',
        'at once too | passed | returned |',
        'suite > inner | passed | returned |',
        'suite > skipped | skipped | - |',
        'suite > later | skipped | - |',
        'suite > deeper > deepest | passed | returned |',
      ].sort(),
    );
    // Each test ran the function its file declared (a concurrent one's circus hands over itself).
    expect(eventsOf(run)).toEqual([]);
    const plain = await runIn(root, 'jest', ['jest', '--ci'], false);
    expect(plain.code).toBe(run.code);
    expect(plain.output.match(/^Tests: .*$/m)?.[0]).toEqual(run.output.match(/^Tests: .*$/m)?.[0]);
  });

  it('under jest: a test whose function was swapped as circus added it is named, though its swapped body returned', async () => {
    const tests = "const { add } = require('../src/math.js');\ntest('adds', () => expect(add(2, 3)).toBe(5));\n";
    const root = project({ 'package.json': CJS, 'src/math.js': SWAPS_JEST_TESTS_AS_ADDED + CJS_ADD, 'test/math.test.js': tests });
    const plain = await runIn(root, 'jest', ['jest', '--ci'], false);
    expect(plain.code, plain.output).toBe(0);
    const run = await runIn(root, 'jest', ['jest', '--ci'], true);
    expect(run.code).toBe(0);
    expect(eventsOf(run)).toEqual([
      'framework_changed ?:? jest was handed another function for the test `adds` than its file declared',
    ]);
  });

  it("under jest: a failure emptied by a handler put first in circus's list is a passed test whose body raised; a body put back after the wrapper is unseen", async () => {
    const tests = "const { add } = require('../src/math.js');\ntest('adds', () => expect(add(2, 3)).toBe(5));\n";
    const flipped = project({ 'package.json': CJS, 'src/math.js': FLIPS_JEST_CIRCUS + CJS_ADD, 'test/math.test.js': tests });
    const run = await runIn(flipped, 'jest', ['jest', '--ci'], true);
    expect(run.code).toBe(0);
    expect(bodies(run)).toEqual([expect.stringMatching(/^adds \| passed \| raised \| Error: expect\(received\)/)]);
    const bypassed = project({ 'package.json': CJS, 'src/math.js': BYPASSES_JEST_WRAPPER + CJS_ADD, 'test/math.test.js': tests });
    expect(bodies(await runIn(bypassed, 'jest', ['jest', '--ci'], true))).toEqual(['adds | passed | unseen |']);
  });

  it('under vitest, in forks and in threads: returned, raised and what, each row of test.each, concurrent tests, a retried test by its last try; nothing for a skipped or todo test', async () => {
    const root = project({ 'package.json': ESM, 'src/math.js': ADD, 'test/math.test.js': VITEST_TESTS });
    const run = await runIn(root, 'vitest', ['vitest', 'run'], true);
    expect(bodies(run).sort()).toEqual(
      [
        'adds | failed | raised | AssertionError: expected -1 to be 5 // Object.is equality',
        'resolves | passed | returned |',
        'same 1 | passed | returned |',
        'same 2 | passed | returned |',
        // expect.assertions fails the test after its body returned: an honest failure, no tampering.
        'counts its assertions | failed | returned |',
        'marked to fail | passed | returned |',
        'marked to fail but returns | failed | raised | returned, though the test is marked to fail',
        'retried | passed | returned |',
        'skips itself | skipped | - |',
        'at once | failed | raised | AssertionError: expected 1 to be 2 // Object.is equality',
        'at once too | passed | returned |',
        'suite > inner | passed | returned |',
        'suite > skipped | skipped | - |',
        'suite > later | skipped | - |',
        'suite > deeper > deepest | passed | returned |',
      ].sort(),
    );
    // The same in worker threads (the default pool is forks: child processes).
    const threads = await runIn(root, 'vitest', ['vitest', 'run', '--pool=threads'], true);
    expect(bodies(threads).sort()).toEqual(bodies(run).sort());
    const plain = await runIn(root, 'vitest', ['vitest', 'run'], false);
    expect(plain.code).toBe(run.code);
    expect(plain.output.match(/^\s*Tests .*$/m)?.[0]).toEqual(run.output.match(/^\s*Tests .*$/m)?.[0]);
  });

  it("under vitest: a failure its task's result was made deaf to is a passed test whose body raised; a wrapper kept from the runner leaves it unseen", async () => {
    const tests =
      "import { expect, test } from 'vitest';\nimport { add } from '../src/math.js';\ntest('adds', () => expect(add(2, 3)).toBe(5));\n";
    const source = `${FLIPS_VITEST_RESULT}export function add(a, b) {\n  flip();\n  return a - b;\n}\n`;
    const root = project({ 'package.json': ESM, 'src/math.js': source, 'test/math.test.js': tests });
    const run = await runIn(root, 'vitest', ['vitest', 'run'], true);
    expect(run.code).toBe(0);
    expect(bodies(run)).toEqual([expect.stringMatching(/^adds \| passed \| raised \| AssertionError: expected -1 to be 5/)]);
    const bypassed = project({ 'package.json': ESM, 'src/math.js': BYPASSES_VITEST_WRAPPER + FIXED, 'test/math.test.js': tests });
    const unseen = await runIn(bypassed, 'vitest', ['vitest', 'run'], true);
    expect(unseen.code).toBe(0);
    expect(bodies(unseen)).toEqual(['adds | passed | unseen |']);
  });
});
