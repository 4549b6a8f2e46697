'use strict';
// What each test's body did, seen by the guard's own wrapper of the call that runs it (docs/design.md
// §3.2.7): it returned (its promise resolved, its callback was called with no error) or it raised (it
// threw, its promise rejected, its callback was handed an error), and what it raised. The runner's
// events say how the test ended; code in the same process can rewrite those (the test stream's objects,
// mocha's emitter, the harness's own `fail`) before the guard is told, but not what the body raised
// before anyone else saw it. The judge holds a test the runner reports passed against its body: one
// that raised, or whose end the wrapper never saw, was not a pass (src/verify/guard-findings.ts).
//
// Where the wrapper sits, installed at load, before any repository code:
// - node's runner: every test's body is called through `AsyncResource.prototype.runInAsyncScope`
//   on the test's own object (Node 18 to 24; its `Test` class is internal, the prototype it inherits is
//   not), whatever route named the test (`test`, `it`, `t.test`, a default import), so the call is
//   wrapped there, for objects of node's `Test` class only (suites and hooks are not test bodies);
// - mocha: `Runnable.prototype.run` of the mocha module node's require loads (its CLI, before any spec)
//   hands each test's `fn` wrapped for that one run (a retry is a clone, run on its own);
// - jest (circus): its test environment is told 'test_fn_start' right before circus reads the test's
//   `fn` and calls it (after the beforeEach hooks, at each try; test-events/jest-events.cjs): `fn`
//   is wrapped there. One other than the function the test's file declared (swapped in as circus
//   added the test) is told too (`jestFnReplaced`), as its wrapper would see the swapped body end. A
//   handler that circus runs later and replaces `fn` again bypasses the wrapper, which leaves the
//   body unseen; one run earlier (put ahead of the environment's in circus's list)
//   finds its replacement wrapped. A generator body (circus runs it through `co`) is left as it is,
//   unseen.
// - vitest (3 to 5): the function its runner reads for each try of a test, from the map it keeps them
//   in, found and watched by guard-vitest-fns.cjs, is handed over wrapped.
// A test marked to fail (jest's `test.failing`, vitest's `test.fails`) passes because its body raised:
// its record says what was expected of the body (a body that raised did as marked: `returned`; one
// that returned did not: `raised`), so the judge's one rule holds for it too.
const { AsyncResource } = require('node:async_hooks');
const { beginTry, callWatched, settle, watchedBody } = require('./guard-body-call.cjs');
const { watchVitestFns } = require('./guard-vitest-fns.cjs');

/** @typedef {import('./guard-body-call.cjs').BodySeen} BodySeen */
/** @typedef {import('./guard-body-call.cjs').AnyFunction} AnyFunction */
/** @typedef {import('./test-events/test-events.cjs').EndedTest} EndedTest */

/** The bodies of this process's tests: the wrappers, and each test's body as they saw it end. */
function createBodies() {
  /** @type {WeakMap<object, BodySeen>} mocha's tests, by the runnable that ran */
  const byRunnable = new WeakMap();
  /** @type {Map<string, BodySeen>} node's tests, by their titles until their end is told */
  const byTitles = new Map();
  let mocha = false;
  /** @type {WeakMap<object, BodySeen>} jest's tests, by circus's test object, for their last try */
  const byJestTest = new WeakMap();
  /** @type {WeakMap<AnyFunction, AnyFunction>} the guard's wrappers of jest bodies, to each body */
  const jestBodies = new WeakMap();
  /** @type {WeakMap<object, BodySeen>} vitest's tests, by their task, for their last try */
  const byVitestTask = new WeakMap();
  /** @type {((task: { type?: unknown }) => void) | null} */
  let vitestTest = null;

  return {
    /** Wraps node's runner's calls of test bodies (always: the wrapper sits on a builtin's prototype). */
    watchNodeTest() {
      watchNodeTest((titles) => {
        const key = JSON.stringify(titles);
        /** @type {BodySeen} */
        const seen = byTitles.get(key) || { body: 'unseen' };
        byTitles.set(key, seen);
        return (raised) => settle(seen, raised);
      });
    },
    /**
     * Wraps mocha's `Runnable.prototype.run` (before the guard snapshots mocha's classes), and keeps the
     * function each test's file declared as the suite adds the test (`Suite.prototype.addTest`, before
     * it tells anyone: it emits 'test'): a test about to run another, swapped in since, is told.
     * @param {{ [name: string]: unknown }} exports mocha's module
     * @param {(test: { fullTitle?: unknown }) => void} replaced
     */
    watchMocha(exports, replaced) {
      const Runnable = /** @type {{ prototype?: { run?: unknown } } | undefined} */ (exports.Runnable);
      if (mocha || !Runnable || !Runnable.prototype || typeof Runnable.prototype.run !== 'function') return;
      mocha = true;
      const swapped = swappedSince(/** @type {{ prototype?: { addTest?: unknown } } | undefined} */ (exports.Suite));
      watchMochaRuns(Runnable.prototype, (runnable, unwrap) => {
        if (swapped(runnable, unwrap)) replaced(runnable);
        return beginTry(byRunnable, runnable);
      });
    },
    /**
     * Wraps a jest test's body for the try circus is about to make (its end is told per try, the last
     * is the test's outcome).
     * @param {{ fn?: unknown }} test circus's test object
     */
    watchJestTest(test) {
      watchJestTry(test, beginTry(byJestTest, test), jestBodies);
    },
    /** @type {(test: { fn?: unknown, concurrent?: unknown }, declared: unknown) => boolean} */
    jestFnReplaced: (test, declared) => swappedJestFn(test, declared, jestBodies),
    /**
     * A vitest test its runner is about to run (its tries to come): each function the runner reads for
     * it is handed over wrapped, each read a try of its own.
     * @param {{ type?: unknown }} task
     */
    watchVitestTest(task) {
      byVitestTask.set(task, { body: 'unseen' });
      if (!vitestTest) vitestTest = watchVitestFns((test, fn) => watchedBody(fn, beginTry(byVitestTask, test), -1));
      vitestTest(task);
    },
    /**
     * What the wrapper saw of an ended test's body; null where this runner's bodies are not wrapped here
     * (mocha loaded by no `require`), or for what is no test (a hook's failure).
     * @param {EndedTest} test
     * @returns {BodySeen | null}
     */
    of(test) {
      if (test.runner === 'node-test') {
        const key = JSON.stringify(test.titles);
        const seen = byTitles.get(key);
        byTitles.delete(key);
        return seen || { body: 'unseen' };
      }
      if (test.runner === 'jest') return asMarked(test.key, (test.key && byJestTest.get(test.key)) || { body: 'unseen' });
      if (test.runner === 'vitest') return asMarked(test.key, (test.key && byVitestTask.get(test.key)) || { body: 'unseen' });
      if (test.runner !== 'mocha' || !mocha || !test.key) return null;
      return byRunnable.get(test.key) || { body: 'unseen' };
    },
  };
}

/**
 * What a test's body did, held against what its test declares: a test marked to fail (circus's
 * `failing`, vitest's `fails`) is to raise, so raising is its body's expected end and returning is not.
 * @param {unknown} test the runner's test object
 * @param {BodySeen} seen
 * @returns {BodySeen}
 */
function asMarked(test, seen) {
  const marked = /** @type {{ failing?: unknown, fails?: unknown } | null} */ (test);
  if (!marked || (marked.failing !== true && marked.fails !== true) || seen.body === 'unseen') return seen;
  return seen.body === 'raised'
    ? { body: 'returned' }
    : { body: 'raised', raised: 'returned, though the test is marked to fail' };
}

/**
 * node's runner: each `Test`'s body is `this.fn`, called through the test's `runInAsyncScope` with
 * its context (and, when the body takes one more argument than it is given, a callback last).
 * @param {(titles: string[]) => (raised: { error: unknown } | null) => void} begin
 */
function watchNodeTest(begin) {
  const prototype = /** @type {{ runInAsyncScope: AnyFunction }} */ (/** @type {unknown} */ (AsyncResource.prototype));
  const run = prototype.runInAsyncScope;
  prototype.runInAsyncScope = function (fn, thisArg, ...args) {
    if (typeof fn !== 'function' || !isNodeTest(this) || this.fn !== fn) return run.call(this, fn, thisArg, ...args);
    const callbackAt = fn.length === args.length && typeof args[args.length - 1] === 'function' ? args.length - 1 : -1;
    return callWatched((a) => run.call(this, fn, thisArg, ...a), args, callbackAt, begin(titlesOf(this)));
  };
}

/** @typedef {{ fn?: unknown, name?: unknown, nesting?: unknown, parent?: NodeTest | null, constructor?: { name?: unknown } }} NodeTest */

/**
 * A test of node's runner (its class is `Test`; `Suite`, `TestHook` and the file's own are not bodies).
 * @param {unknown} value
 * @returns {value is NodeTest}
 */
function isNodeTest(value) {
  const test = /** @type {NodeTest | null | undefined} */ (value);
  return !!test && typeof test.nesting === 'number' && !!test.parent && !!test.constructor && test.constructor.name === 'Test';
}

/**
 * Its titles as node's events give them: the tests and suites above it (the root's excepted), then its own.
 * @param {NodeTest} test
 */
function titlesOf(test) {
  const titles = [];
  for (let t = /** @type {NodeTest | null | undefined} */ (test); t && t.parent; t = t.parent) titles.unshift(String(t.name));
  return titles;
}

/**
 * mocha: keeps the function each test had as its suite added it (`Suite.prototype.addTest`, before it
 * tells anyone: it emits 'test'); returns whether a test is about to run another, swapped in since
 * (for a retry, its clone's original, which mocha 8 and later name), the guard's own wrapper aside.
 * @param {{ prototype?: { addTest?: unknown } } | undefined} Suite
 * @returns {(runnable: object, unwrap: (fn: unknown) => unknown) => boolean}
 */
function swappedSince(Suite) {
  /** @type {WeakMap<object, unknown>} */
  const declared = new WeakMap();
  const prototype = Suite && Suite.prototype;
  if (prototype && typeof prototype.addTest === 'function') {
    const addTest = /** @type {AnyFunction} */ (prototype.addTest);
    prototype.addTest = function (/** @type {unknown} */ test, /** @type {unknown[]} */ ...rest) {
      if (isMochaTest(test)) declared.set(test, test.fn);
      return addTest.call(this, test, ...rest);
    };
  }
  return (runnable, unwrap) => {
    const retried = /** @type {{ retriedTest?: unknown }} */ (runnable).retriedTest;
    const first = typeof retried === 'function' ? retried.call(runnable) : null;
    const fn = declared.has(runnable) ? declared.get(runnable) : first ? declared.get(first) : undefined;
    return typeof fn === 'function' && unwrap(/** @type {{ fn?: unknown }} */ (runnable).fn) !== fn;
  };
}

/**
 * jest: whether circus is about to call another function than the one the test file declared (the
 * guard's own wrapper of it aside): one was put in its place since. circus does so itself for a
 * concurrent test (it calls a function that hands over the promise it started earlier).
 * @param {{ fn?: unknown, concurrent?: unknown }} test
 * @param {unknown} declared
 * @param {WeakMap<AnyFunction, AnyFunction>} bodies the guard's wrappers, to each body
 */
function swappedJestFn(test, declared, bodies) {
  if (typeof declared !== 'function' || test.concurrent) return false;
  const given = /** @type {AnyFunction} */ (test.fn);
  return (bodies.get(given) || given) !== declared;
}

/**
 * mocha: each test's `fn`, for one run, wrapped; mocha decided at the test's making whether it takes
 * `done` (`fn.length`), and then calls it with that callback.
 * @param {{ run?: unknown }} prototype Runnable.prototype
 * @param {(runnable: object, unwrap: (fn: unknown) => unknown) => (raised: { error: unknown } | null) => void} begin
 */
function watchMochaRuns(prototype, begin) {
  /** @type {WeakMap<object, unknown>} the guard's wrappers, to each body (a retry's clone may copy one) */
  const wrappers = new WeakMap();
  /** @param {unknown} fn */
  const unwrap = (fn) => (typeof fn === 'function' && wrappers.get(fn)) || fn;
  const run = /** @type {AnyFunction} */ (prototype.run);
  prototype.run = function (/** @type {unknown[]} */ ...args) {
    if (!isMochaTest(this)) return run.apply(this, args);
    /** @type {AnyFunction} */
    const body = this.fn;
    this.fn = watchedBody(body, begin(this, unwrap));
    wrappers.set(this.fn, unwrap(body));
    try {
      return run.apply(this, args);
    } finally {
      // mocha calls the body within `run`: the test keeps its own function (a retry's clone copies it).
      this.fn = body;
    }
  };
}

/**
 * jest: the test's `fn` wrapped for the try circus is about to make. A retry finds the wrapper of its
 * first try: the body is the one it wraps.
 * @param {{ fn?: unknown }} test circus's test object
 * @param {import('./guard-body-call.cjs').End} end
 * @param {WeakMap<AnyFunction, AnyFunction>} bodies the guard's wrappers, to each body
 */
function watchJestTry(test, end, bodies) {
  if (typeof test.fn !== 'function') return;
  const given = /** @type {AnyFunction} */ (test.fn);
  const body = bodies.get(given) || given;
  if (isGenerator(body)) return;
  const watched = watchedBody(body, end);
  bodies.set(watched, body);
  test.fn = watched;
}

/** @param {AnyFunction} fn */
function isGenerator(fn) {
  const constructor = Object.getPrototypeOf(fn) && Object.getPrototypeOf(fn).constructor;
  return !!constructor && (constructor.name === 'GeneratorFunction' || constructor.name === 'AsyncGeneratorFunction');
}

/**
 * @param {unknown} value
 * @returns {value is { type: 'test', fn: AnyFunction }}
 */
function isMochaTest(value) {
  const runnable = /** @type {{ type?: unknown, fn?: unknown } | null} */ (value);
  return !!runnable && runnable.type === 'test' && typeof runnable.fn === 'function';
}

module.exports = { createBodies };
