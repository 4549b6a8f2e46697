'use strict';
// chai's `Assertion.prototype`, as vitest's `expect` reaches it: every matcher vitest adds there calls
// the prototype's `assert` to decide, so code that replaces `assert` (or a matcher) there turns every
// failed check into a pass without touching a test, a global or an intrinsic. vitest bundles chai in
// an ES module the guard's preload cannot reach; the prototype is the one of an assertion object, made
// once by calling vitest's global `expect` (`Symbol.for('expect-global')`). That call counts as an
// assertion in `expect`'s state, which is put back as it was (`expect.assertions(n)` counts the tests'
// own calls only). A test that loads chai with node's `require` (mocha's CommonJS tests) hands over
// its module, and the prototype is the module's `Assertion`'s.

const EXPECT = Symbol.for('expect-global');

/**
 * The prototype of vitest's assertion objects, or null where there is no vitest `expect` to ask.
 * @param {Record<PropertyKey, unknown>} global the tests' global
 * @returns {object | null}
 */
function chaiAssertionPrototype(global) {
  const expect = /** @type {{ (value: unknown): unknown, getState?: unknown, setState?: unknown }} */ (global[EXPECT]);
  if (typeof expect !== 'function' || typeof expect.getState !== 'function' || typeof expect.setState !== 'function') return null;
  const state = /** @type {{ assertionCalls?: unknown }} */ (expect.getState());
  const calls = state && state.assertionCalls;
  try {
    return asserting(Object.getPrototypeOf(expect(undefined)));
  } catch {
    return null; // an `expect` that would not make an assertion here: nothing to watch
  } finally {
    expect.setState({ assertionCalls: calls });
  }
}

/**
 * chai's `Assertion.prototype` from its module, as a test loads it with node's `require` (mocha's
 * CommonJS tests), or null where the module is not chai's.
 * @param {{ [name: string]: unknown }} chai
 * @returns {object | null}
 */
function chaiModulePrototype(chai) {
  const Assertion = /** @type {{ prototype?: unknown } | undefined} */ (chai.Assertion);
  return asserting(Assertion && Assertion.prototype);
}

/**
 * The object, when it is an assertion prototype: one with an `assert` method.
 * @param {unknown} prototype
 * @returns {object | null}
 */
function asserting(prototype) {
  const candidate = /** @type {{ assert?: unknown } | null | undefined} */ (prototype);
  return candidate && typeof candidate.assert === 'function' ? candidate : null;
}

module.exports = { chaiAssertionPrototype, chaiModulePrototype };
