// The Node guard watches the parts a test's verdict is computed with (guard-intrinsics.cjs): the
// runner's test API on the tests' global and the intrinsics `expect` and chai decide equality with. A
// write by the code under test, by whatever name it makes, is an event naming its line, and the
// suite it fooled still passes without the guard; a test's own stub and a setup file's wrapper are not.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { eventsOf, project, removeProjects, runIn, testsOf } from '../support/guarded-run.ts';

vi.setConfig({ testTimeout: 120_000 });
afterAll(() => removeProjects());

const CJS = JSON.stringify({ name: 'calc', private: true }) + '\n';
const ESM = JSON.stringify({ name: 'calc', private: true, type: 'module' }) + '\n';

/** A wrong `add`, and a cheat that makes the runner's test function swallow the failure it causes. */
const SWALLOWS = (global: string, name: string[]) =>
  [
    'const add = (a, b) => a - b;',
    `const key = ${JSON.stringify(name)}.join('');`,
    `const own = ${global}[key];`,
    `${global}[key] = (title, fn) => own(title, async () => { try { await fn(); } catch {} });`,
  ].join('\n') + '\n';

/** Lines 2 and 3 of a source file that has chai's `Assertion`: its `assert` swallows every failure. */
const SWALLOWS_CHAI_ASSERT = [
  'const own = Assertion.prototype.assert;',
  'Assertion.prototype.assert = function (...args) { try { return own.apply(this, args); } catch { return undefined; } };',
];

/** mocha passes the project's tests with and without the guard, which names line 3 of src/add.js. */
async function expectMochaToNameChaiAssert(root: string): Promise<void> {
  const plain = await runIn(root, 'mocha', ['mocha'], false);
  expect(plain.code, plain.output).toBe(0);
  const run = await runIn(root, 'mocha', ['mocha'], true);
  expect(run.code, run.output).toBe(0);
  expect(eventsOf(run)).toEqual(["framework_changed src/add.js:3 chai's Assertion.prototype.assert replaced"]);
}

describe("the Node guard, the verdict's parts", () => {
  it('under jest: the global `test` wrapped by the code is named', async () => {
    const root = project({
      'package.json': CJS,
      'src/add.js': `${SWALLOWS('globalThis', ['te', 'st'])}module.exports = { add };\n`,
      'test/add.test.js': "const { add } = require('../src/add.js');\ntest('adds', () => expect(add(2, 2)).toBe(4));\n",
    });
    const plain = await runIn(root, 'jest', ['jest', '--ci'], false);
    expect(plain.code, plain.output).toBe(0);
    const run = await runIn(root, 'jest', ['jest', '--ci'], true);
    expect(eventsOf(run)).toEqual([
      "runner_detected src/add.js:3 read jest's global `test`",
      "framework_changed src/add.js:4 jest's global `test` replaced",
    ]);
  });

  it("under jest: a setup file's wrapper of `test` and a test's stubs of intrinsics are not the code's", async () => {
    const root = project({
      'package.json': CJS,
      'jest.config.js': "module.exports = { setupFilesAfterEnv: ['<rootDir>/jest.setup.js'] };\n",
      'jest.setup.js': 'const own = global.test;\nglobal.test = (title, fn) => own(title, fn);\n',
      'src/add.js': 'module.exports = { add: (a, b) => a + b };\n',
      'test/add.test.js': [
        "const { add } = require('../src/add.js');",
        "test('adds', () => expect(add(2, 2)).toBe(4));",
        "test('stubs', () => { jest.spyOn(Array, 'isArray').mockReturnValue(true); expect(Array.isArray(1)).toBe(true); });",
        "test('assigns', () => { const own = Object.keys; Object.keys = (o) => own(o); expect(Object.keys({ a: 1 })).toEqual(['a']); });",
        '',
      ].join('\n'),
    });
    const run = await runIn(root, 'jest', ['jest', '--ci'], true);
    expect(run.code, run.output).toBe(0);
    expect(eventsOf(run)).toEqual([]);
    expect(testsOf(run)).toEqual({ passed: 3, failed: 0, skipped: 0 });
  });

  it('under vitest: `Object.is` replaced through a computed name, in forks and in threads', async () => {
    const root = project({
      'package.json': ESM,
      'src/compare.js': [
        'export const compare = (a, b) => (String(a) < String(b) ? -1 : 1);',
        "const name = ['i', 's'].join('');",
        'const own = Object[name];',
        'Object[name] = (a, b) => own(a, b) || (typeof a === "number" && a === -b);',
        '',
      ].join('\n'),
      'test/compare.test.js': [
        "import { expect, test } from 'vitest';",
        "import { compare } from '../src/compare.js';",
        "test('orders', () => expect(compare(10, 9)).toBe(1));",
        '',
      ].join('\n'),
    });
    const plain = await runIn(root, 'vitest', ['vitest', 'run'], false);
    expect(plain.code, plain.output).toBe(0);
    for (const pool of ['--pool=forks', '--pool=threads']) {
      const run = await runIn(root, 'vitest', ['vitest', 'run', pool], true);
      expect(eventsOf(run)).toEqual(['framework_changed src/compare.js:4 Object.is replaced']);
    }
  });

  it("under vitest: chai's `Assertion.prototype.assert`, reached through `expect`, replaced by the code is named; a test's `expect.extend` and `expect.assertions` are left as they were", async () => {
    const root = project({
      'package.json': ESM,
      'src/compare.js': [
        'export const compare = (a, b) => (String(a) < String(b) ? -1 : 1);',
        'export function settle() {',
        "  const proto = Object.getPrototypeOf(globalThis[Symbol.for('expect-global')](0));",
        '  const own = proto.assert;',
        '  proto.assert = function (...args) { try { return own.apply(this, args); } catch { return undefined; } };',
        '}',
        '',
      ].join('\n'),
      'test/compare.test.js': [
        "import { expect, test } from 'vitest';",
        "import { compare, settle } from '../src/compare.js';",
        "test('orders', () => { settle(); expect(compare(10, 9)).toBe(1); });",
        '',
      ].join('\n'),
      'test/own.test.js': [
        "import { expect, test } from 'vitest';",
        "expect.extend({ toBeTen: (received) => ({ pass: received === 10, message: () => 'not ten' }) });",
        "test('counts', () => { expect.assertions(2); expect(10).toBeTen(); expect(1).toBe(1); });",
        '',
      ].join('\n'),
    });
    const plain = await runIn(root, 'vitest', ['vitest', 'run'], false);
    expect(plain.code, plain.output).toBe(0);
    for (const pool of ['--pool=forks', '--pool=threads']) {
      const run = await runIn(root, 'vitest', ['vitest', 'run', pool], true);
      expect(run.code, run.output).toBe(0);
      expect(eventsOf(run)).toEqual(["framework_changed src/compare.js:5 chai's Assertion.prototype.assert replaced"]);
      expect(testsOf(run)).toEqual({ passed: 2, failed: 0, skipped: 0 });
    }
  });

  it("under mocha: chai's `Assertion.prototype.assert` replaced by the code is named; a test's own chai plugin is not", async () => {
    const root = project({
      'package.json': CJS,
      'src/add.js': [
        "const { Assertion } = require('chai');",
        ...SWALLOWS_CHAI_ASSERT,
        'module.exports = { add: (a, b) => a - b };',
        '',
      ].join('\n'),
      'test/add.test.js': [
        "const chai = require('chai');",
        "chai.use((c, utils) => utils.addMethod(c.Assertion.prototype, 'ten', function () { this.assert(this._obj === 10, 'not ten', 'ten'); }));",
        "const { add } = require('../src/add.js');",
        "it('adds', () => chai.expect(add(2, 2)).to.equal(4));",
        "it('is ten', () => chai.expect(10).to.ten());",
        '',
      ].join('\n'),
    });
    await expectMochaToNameChaiAssert(root);
  });

  it("under mocha, ES module tests: chai's `Assertion.prototype.assert` replaced by code that imports chai is named", async () => {
    const root = project({
      'package.json': ESM,
      'src/add.js': [
        "import { Assertion } from 'chai';",
        ...SWALLOWS_CHAI_ASSERT,
        'export const add = (a, b) => a - b;',
        '',
      ].join('\n'),
      'test/add.test.js': [
        "import { expect } from 'chai';",
        "import { add } from '../src/add.js';",
        "it('adds', () => expect(add(2, 2)).to.equal(4));",
        '',
      ].join('\n'),
    });
    await expectMochaToNameChaiAssert(root);
  });

  it('under mocha: the global `it` wrapped by the code is named; a setup file that wraps it is not', async () => {
    const root = project({
      'package.json': CJS,
      '.mocharc.json': JSON.stringify({ require: ['test/retry.setup.js'] }) + '\n',
      'test/retry.setup.js': 'const own = global.it;\nglobal.it = (title, fn) => own(title, fn);\n',
      'src/add.js': `${SWALLOWS('global', ['i', 't'])}module.exports = { add };\n`,
      'test/add.test.js': [
        "const assert = require('node:assert');",
        "const { add } = require('../src/add.js');",
        "it('adds', () => assert.strictEqual(add(2, 2), 4));",
        '',
      ].join('\n'),
    });
    const plain = await runIn(root, 'mocha', ['mocha'], false);
    expect(plain.code, plain.output).toBe(0);
    const run = await runIn(root, 'mocha', ['mocha'], true);
    expect(eventsOf(run)).toEqual([
      "runner_detected src/add.js:3 read mocha's global `it`",
      "framework_changed src/add.js:4 mocha's global `it` replaced",
    ]);
    expect(testsOf(run)).toEqual({ passed: 1, failed: 0, skipped: 0 });
  });

  it("names the code that asks for a runner's global (jest, vitest, mocha); a test's and a setup file's reads are not", async () => {
    // Right only under test: the answer the test wants when a runner's `describe` is there.
    const detects = (module: string) =>
      [
        "const underTest = () => typeof globalThis[['descr', 'ibe'].join('')] === 'function';",
        'const add = (a, b) => (underTest() ? a + b : a - b);',
        module,
        '',
      ].join('\n');
    const jest = project({
      'package.json': CJS,
      'jest.config.js': "module.exports = { setupFilesAfterEnv: ['<rootDir>/jest.setup.js'] };\n",
      'jest.setup.js': 'if (typeof global.describe !== "function") throw new Error("no describe");\n',
      'src/add.js': detects('module.exports = { add };'),
      'test/add.test.js':
        "const { add } = require('../src/add.js');\ndescribe('add', () => test('adds', () => expect(add(2, 2)).toBe(4)));\n",
    });
    const vitest = project({
      'package.json': ESM,
      'vitest.config.js': 'export default { test: { globals: true } };\n',
      'src/add.js': detects('export { add };'),
      'test/add.test.js':
        "import { add } from '../src/add.js';\ndescribe('add', () => it('adds', () => expect(add(2, 2)).toBe(4)));\n",
    });
    const mocha = project({
      'package.json': CJS,
      'src/add.js': detects('module.exports = { add };'),
      'test/add.test.js':
        "const assert = require('node:assert');\nconst { add } = require('../src/add.js');\ndescribe('add', () => it('adds', () => assert.strictEqual(add(2, 2), 4)));\n",
    });
    for (const [root, runner, args, name] of [
      [jest, 'jest', ['jest', '--ci'], 'jest'],
      [vitest, 'vitest', ['vitest', 'run'], 'vitest'],
      [mocha, 'mocha', ['mocha'], 'mocha'],
    ] as const) {
      const plain = await runIn(root, runner, [...args], false);
      expect(plain.code, plain.output).toBe(0);
      const run = await runIn(root, runner, [...args], true);
      expect(run.code, run.output).toBe(0);
      expect(new Set(eventsOf(run))).toEqual(new Set([`runner_detected src/add.js:1 read ${name}'s global \`describe\``]));
    }
  });

  it("keeps an inheriting object's own method its own: a class's `toString` is no write to Object.prototype's", async () => {
    const root = project({
      'package.json': CJS,
      'src/range.js': [
        'function Range(low, high) { this.low = low; this.high = high; }',
        "Range.prototype.toString = function () { return this.low + '-' + this.high; };",
        'class Words extends Array {}',
        'Words.isArray = () => false;',
        'module.exports = { Range, Words };',
        '',
      ].join('\n'),
      'test/range.test.js': [
        "const assert = require('node:assert');",
        "const { Range, Words } = require('../src/range.js');",
        "it('prints', () => assert.strictEqual(String(new Range(1, 2)), '1-2'));",
        "it('leaves objects alone', () => assert.strictEqual(String({}), '[object Object]'));",
        "it('leaves Array alone', () => assert.strictEqual(Array.isArray([]) && !Words.isArray([]), true));",
        '',
      ].join('\n'),
    });
    const run = await runIn(root, 'mocha', ['mocha'], true);
    expect(run.code, run.output).toBe(0);
    expect(eventsOf(run)).toEqual([]);
    expect(testsOf(run)).toEqual({ passed: 3, failed: 0, skipped: 0 });
  });

  it('names an intrinsic redefined through Object.defineProperty, and one deleted and set again, without a place', async () => {
    const root = project({
      'package.json': CJS,
      'src/keys.js': [
        "Object.defineProperty(Number, 'isNaN', { value: (v) => v !== v, configurable: true, writable: true });",
        'const own = Array.isArray;',
        'delete Array.isArray;',
        'Array.isArray = (v) => own(v);',
        'module.exports = {};',
        '',
      ].join('\n'),
      'test/keys.test.js': "require('../src/keys.js');\ntest('loads', () => expect(1).toBe(1));\n",
    });
    const run = await runIn(root, 'jest', ['jest', '--ci'], true);
    expect(run.code, run.output).toBe(0);
    expect(eventsOf(run)).toEqual([
      'framework_changed src/keys.js:1 Number.isNaN redefined',
      'framework_changed ?:? Array.isArray deleted or redefined by a route the guard does not watch',
    ]);
  });
});
