'use strict';
// Where vitest (3 to 5) keeps each test's function, for the guard's wrapper of test bodies
// (guard-bodies.cjs, docs/design.md §3.2.7). Its runner module is ESM, out of a CommonJS preload's
// reach: it keeps each task's function in a module-private `WeakMap` (its `setFn` at collection) and
// reads it back with that map's `get`, once per try, right before it calls it (its `runTest`, after
// the beforeEach hooks). That map is found by the one call that gives it away: from the moment the
// runner makes a test its current task (guard-runners follows its worker state) until a function is
// read under that test as key, `WeakMap.prototype.get` is the guard's, and the map that answered is
// vitest's. The prototype is then put back and that one map is given a `get` of its own, which hands
// the runner each test's function wrapped; no other map is touched after that.
//
// Code that puts its own `WeakMap.prototype.get` in place, or reads a function under the test from a
// map of its own first, keeps the wrapper from the runner's read: its bodies go unseen, which the judge
// holds against a test reported passed. Code that reaches vitest's map and puts a function of its own
// there hands the runner that function, wrapped. The vm pools (vmThreads, vmForks) keep their worker
// state in a context of their own: there the guard follows no test at all (no case, so no body).

/** @typedef {(this: unknown, ...args: unknown[]) => unknown} AnyFunction */
/** @typedef {{ type?: unknown }} Task */

/**
 * @param {(task: Task, fn: AnyFunction) => AnyFunction} wrap the function the runner gets for a try of a test
 * @returns {(task: Task) => void} told each test the runner makes its current task
 */
function watchVitestFns(wrap) {
  const prototype = /** @type {{ get: AnyFunction }} */ (/** @type {unknown} */ (WeakMap.prototype));
  const get = prototype.get;
  /** @type {WeakMap<object, unknown> | null} vitest's map of task functions, once found */
  let found = null;
  /** @type {Set<Task>} tests made current since the map was looked for */
  const running = new Set();

  /** @this {WeakMap<object, unknown>} @param {unknown} key */
  const own = function (key) {
    const value = get.call(this, key);
    return typeof value === 'function' && isTest(key) ? wrap(key, /** @type {AnyFunction} */ (value)) : value;
  };
  /** @type {AnyFunction} */
  const trap = function (key) {
    const value = get.call(this, key);
    return typeof value === 'function' && running.has(/** @type {Task} */ (key)) ? adopt(this, key) : value;
  };
  /**
   * The map that answered with a test's function: vitest's, watched from now on by its own `get`.
   * @param {unknown} map
   * @param {unknown} key
   */
  const adopt = (map, key) => {
    found = /** @type {WeakMap<object, unknown>} */ (map);
    running.clear();
    if (prototype.get === trap) putBack(get);
    Object.defineProperty(found, 'get', { value: own, configurable: true, writable: true, enumerable: false });
    return own.call(found, key);
  };
  Object.defineProperty(trap, 'name', { value: 'get' });

  return (task) => {
    if (found || !isTest(task)) return;
    running.add(task);
    if (prototype.get !== trap) putBack(trap);
  };
  /**
   * The prototype's `get` set, where code made it read-only (the runner's reads then go unwrapped: unseen).
   * @param {AnyFunction} fn
   */
  function putBack(fn) {
    try {
      prototype.get = fn;
    } catch {
      // A read-only `get`: nothing to do.
    }
  }
}

/**
 * @param {unknown} value
 * @returns {value is Task & object}
 */
function isTest(value) {
  return !!value && typeof value === 'object' && /** @type {Task} */ (value).type === 'test';
}

module.exports = { watchVitestFns };
