'use strict';
// chai's `Assertion.prototype`, as vitest's `expect` reaches it: every matcher vitest adds there calls
// the prototype's `assert` to decide, so code that replaces `assert` (or a matcher) there turns every
// failed check into a pass without touching a test, a global or an intrinsic. vitest bundles chai in
// an ES module the guard's preload cannot reach; the prototype is the one of an assertion object, made
// once by calling vitest's global `expect` (`Symbol.for('expect-global')`). That call counts as an
// assertion in `expect`'s state, which is put back as it was (`expect.assertions(n)` counts the tests'
// own calls only).

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
    const prototype = Object.getPrototypeOf(expect(undefined));
    return prototype && typeof prototype.assert === 'function' ? prototype : null;
  } catch {
    return null; // an `expect` that would not make an assertion here: nothing to watch
  } finally {
    expect.setState({ assertionCalls: calls });
  }
}

module.exports = { chaiAssertionPrototype };
