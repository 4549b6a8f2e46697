'use strict';
// Keys added to `Object.prototype` (docs/design.md §3.2.7): a key there is on every object at once,
// and a setter hears each write of its name to any of them (an assertion error's `actual`, a test
// result's `passed`). Each watched realm's own keys are taken when the guard first meets the realm;
// a key added since is recorded, placed when a define function adds it (the caller is told by the
// intrinsics watch, guard-intrinsics.cjs), unplaced when an assignment does, seen at `check`. As every
// event, one the pristine code's run had too (a test library's `should`) is the project's own way.

/** @typedef {import('./guard-record.cjs').GuardRecord} GuardRecord */

/**
 * @param {GuardRecord} record
 * @param {(label: string, how: string) => void} note records a placed change when its writer is the repository's code
 */
function createPrototypeWatch(record, note) {
  /** @type {WeakMap<object, Set<PropertyKey>>} */
  const known = new WeakMap();
  /** @type {object | undefined} the guard's realm's Object.prototype */
  let own;
  /** @type {object | undefined} the current test realm's */
  let current;

  return {
    /**
     * Takes the keys of a realm's Object.prototype, once per realm.
     * @param {Record<string, unknown>} global
     */
    realm(global) {
      const prototype = /** @type {{ prototype?: object } | undefined} */ (global.Object)?.prototype;
      if (!prototype || known.has(prototype)) return;
      known.set(prototype, new Set(Reflect.ownKeys(prototype)));
      if (global === globalThis) own = prototype;
      else current = prototype;
    },
    /**
     * A key about to be defined on `target` by a define function: recorded when it is new to a watched prototype.
     * @param {unknown} target
     * @param {PropertyKey} key
     */
    defining(target, key) {
      const keys = typeof target === 'object' && target !== null && known.get(target);
      if (!keys || keys.has(key)) return;
      keys.add(key);
      note(`Object.prototype.${String(key)}`, 'added');
    },
    /** Records each key added to a watched prototype by a route no define function saw, with no place. */
    check() {
      for (const prototype of new Set([own, current])) {
        const keys = prototype && known.get(prototype);
        if (!prototype || !keys) continue;
        for (const key of Reflect.ownKeys(prototype)) {
          if (keys.has(key)) continue;
          keys.add(key);
          const detail = `Object.prototype.${String(key)} added by a route the guard does not watch`;
          record.event('framework_changed', { file: null, line: null }, detail);
        }
      }
    },
  };
}

module.exports = { createPrototypeWatch };
