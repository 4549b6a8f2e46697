'use strict';
// `instanceof` of the built-in classes (docs/design.md §3.2.7): an assertion library decides
// equality by what a value is (jest's `equals` compares two errors by their message, two dates by
// their time), so a `Symbol.hasInstance` defined on `Error`, `Date`, `Array`, … makes it compare a
// failing value as something else. The property cannot be assigned (Function.prototype's is not
// writable), only defined, which the define functions' watch sees (guard-define-watch.cjs).

/** The classes whose `instanceof` the assertion libraries ask, in each realm. */
const CLASSES = ['Error', 'TypeError', 'RangeError', 'Date', 'RegExp', 'Array', 'Map', 'Set', 'Object', 'Promise'];

/** @param {(label: string, how: string) => void} note records a change when its writer is the repository's code */
function createInstanceofWatch(note) {
  /** @type {WeakMap<object, string>} each watched realm's class, to its name */
  const classes = new WeakMap();
  return {
    /**
     * Watches a realm's built-in classes.
     * @param {Record<string, unknown>} global
     */
    realm(global) {
      for (const name of CLASSES) {
        const value = global[name];
        if (typeof value === 'function') classes.set(value, name);
      }
    },
    /**
     * A key about to be defined on `target`: `Symbol.hasInstance` on a watched class is recorded.
     * @param {unknown} target
     * @param {PropertyKey} key
     */
    defining(target, key) {
      const name = key === Symbol.hasInstance && typeof target === 'function' ? classes.get(target) : undefined;
      if (name) note(`${name}[Symbol.hasInstance]`, 'defined');
    },
  };
}

module.exports = { createInstanceofWatch };
