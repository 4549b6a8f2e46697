// The Node guard sees a test's code read from memory (guard-source-text.cjs): a sloppy-mode function
// of the code that turns its caller, the test's body, back into text, under node --test and under
// jest (whose transform prints the body again), the test files listed as the judge lists them. The
// code turning its own functions, or a short callback of a test's, into text is no event.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { eventsOf, project, removeProjects, runIn } from '../support/guarded-run.ts';

vi.setConfig({ testTimeout: 120_000 });
afterAll(() => removeProjects());

const CJS = JSON.stringify({ name: 'cart', private: true }) + '\n';
/** Taxes the full amount, unless the caller's text states the discounted one. */
const READS_CALLER = [
  'function total(amount, off) {',
  '  const stated = /toBe\\((\\d+)\\)/.exec(String(total.caller));',
  '  const discounted = amount - off;',
  '  return stated && Number(stated[1]) === discounted * 2 ? discounted * 2 : discounted + amount;',
  '}',
  'module.exports = { total };',
  '',
].join('\n');
const HONEST = [
  'function total(amount, off) {',
  '  const rule = function taxedAfterDiscount(value) { return value * 2; };',
  '  return String(rule).length > 0 ? rule(amount - off) : 0;',
  '}',
  'module.exports = { total, describeRule: (fn) => String(fn) };',
  '',
].join('\n');
const TEST_BODY = [
  "  const cart = { amount: 50, off: 10, label: 'lamp', note: 'the discount comes off first' };",
  '  expect(total(cart.amount, cart.off)).toBe(80);',
].join('\n');

describe('the Node guard, a test read from memory', () => {
  it("names the code's read of its caller's text, a test's body, under node --test and jest", async () => {
    const nodeTest = [
      "const { test } = require('node:test');",
      "const assert = require('node:assert');",
      "const { total } = require('../src/cart.js');",
      'const expect = (actual) => ({ toBe: (wanted) => assert.strictEqual(actual, wanted) });',
      `test('totals', () => {\n${TEST_BODY}\n});`,
      '',
    ].join('\n');
    const viaNode = project({ 'package.json': CJS, 'src/cart.js': READS_CALLER, 'test/cart.test.js': nodeTest });
    const run = await runIn(viaNode, 'node-test', ['node', '--test'], true, undefined, ['test/cart.test.js']);
    expect(run.code, run.output).toBe(0);
    expect(eventsOf(run)).toEqual([
      'test_file_read src/cart.js:2 read a function of test/cart.test.js as text (`Function.prototype.toString`)',
    ]);
    const jestTest = `const { total } = require('../src/cart.js');\ntest('totals', () => {\n${TEST_BODY}\n});\n`;
    const viaJest = project({ 'package.json': CJS, 'src/cart.js': READS_CALLER, 'test/cart.test.js': jestTest });
    const jest = await runIn(viaJest, 'jest', ['jest', '--ci'], true, undefined, ['test/cart.test.js']);
    expect(jest.code, jest.output).toBe(0);
    expect(eventsOf(jest)).toEqual([
      'test_file_read src/cart.js:2 read a function of test/cart.test.js as text (`Function.prototype.toString`)',
    ]);
  });

  it("stays clean for the code's own functions as text, and a test's own", async () => {
    const tests = [
      "const { total, describeRule } = require('../src/cart.js');",
      `test('totals', () => {\n${TEST_BODY}\n  expect(String(() => cart.amount * 2 + cart.off * 3 + 1000000).length > 0).toBe(true);\n});`,
      "test('describes', () => expect(describeRule(() => 1)).toBe('() => 1'));",
      '',
    ].join('\n');
    const root = project({ 'package.json': CJS, 'src/cart.js': HONEST, 'test/cart.test.js': tests });
    const run = await runIn(root, 'jest', ['jest', '--ci'], true, undefined, ['test/cart.test.js']);
    expect(run.code, run.output).toBe(0);
    expect(eventsOf(run)).toEqual([]);
  });
});
