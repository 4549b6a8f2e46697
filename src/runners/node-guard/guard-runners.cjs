'use strict';
// What the guard sees of each runner in the process that runs the tests: each test that ends, with its
// identity, outcome and error (followed through test-events/, as the runner's own reporters get them;
// the judge checks them against the runner's reports) and, for jest and vitest, the matcher table
// `expect` reads (`expect.extend` writes it): a proxy records every write by code that is not a test.
// mocha's classes are checked by identity at each test's end and at exit.
const { relative, isAbsolute, sep } = require('node:path');
const { followTests } = require('./test-events/test-events.cjs');
const { createBodies } = require('./guard-bodies.cjs');
const { titlesOf: jestTitles } = require('./test-events/jest-events.cjs');
const { titlesOf: mochaTitles } = require('./test-events/mocha-events.cjs');
const { chaiAssertionPrototype, chaiModulePrototype } = require('./guard-chai.cjs');
const { createIntrinsicsWatch } = require('./guard-intrinsics.cjs');
const { frameworkStateWatch } = require('./guard-framework-state.cjs');

const MATCHERS = Symbol.for('$$jest-matchers-object');
/** A failed test's message and stack, capped (guard-record.ts): enough to tell one failure from another. */
const MESSAGE_CHARS = 2000;
const STACK_CHARS = 8000;

/** @typedef {import('./guard-record.cjs').GuardRecord} GuardRecord */
/** @typedef {import('./guard-record.cjs').GuardTestCase} GuardTestCase */
/** @typedef {import('./test-events/test-events.cjs').EndedTest} EndedTest */
/** @typedef {import('./guard-framework-state.cjs').MatchersHolder} MatchersHolder what `expect` keeps its state in */
/** @typedef {(holder: MatchersHolder | null | undefined, runner: string) => void} WatchMatchers */

/**
 * @param {GuardRecord} record
 * @param {Pick<import('./guard-caller.cjs').Caller, 'caller' | 'direct'>} who the writer of a watched part, and the reader of a runner's global
 * @param {string} root the checkout
 * @param {{ environment: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv, sourceText: (global: object) => void }} watch
 *   what jest's realms need watched besides: another environment object (guard-environment.cjs: jest's
 *   tests get a `process` of their own), and the realm's `Function.prototype.toString` (guard-source-text.cjs)
 * @param {() => void} [nodeTestReported] told each test or suite node's runner reports ending here (guard-file-test.cjs)
 */
function guardRunners(record, { caller, direct }, root, watch, nodeTestReported) {
  const state = frameworkStateWatch(record, caller);
  /** @type {WatchMatchers} */
  const watchMatchers = (holder, runner) => state.matchers(holder, runner);
  const mocha = mochaClasses(record);
  // The runner's test API and the intrinsics assertions decide with: their writers recorded.
  const verdictParts = createIntrinsicsWatch(record, caller, direct);
  verdictParts.intrinsicsOf(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis)));
  process.on('exit', () => verdictParts.check());
  let chaiWatched = false;
  /**
   * A test the runner was about to call with another function than its file declared (guard-bodies.cjs).
   * @param {string} runner
   * @param {string[]} titles
   */
  const swapped = (runner, titles) =>
    record.event(
      'framework_changed',
      { file: null, line: null },
      `${runner} was handed another function for the test \`${titles.join(' > ')}\` than its file declared`,
    );
  // Each test's body as the guard's own wrapper saw it end (guard-bodies.cjs), beside its outcome.
  const bodies = createBodies();
  bodies.watchNodeTest();
  followTests({
    started: () => record.testStarted(),
    suiteEnded: () => record.suiteEnded(),
    ended: (test) => {
      if (test.runner === 'mocha') mocha.check();
      verdictParts.check();
      const named = testCase(test, root);
      const seen = test.outcome === 'skipped' ? null : bodies.of(test);
      if (seen) Object.assign(named, seen);
      record.testEnded(named, test.key, test.started);
    },
    mochaLoaded: (exports) => {
      if (mocha.classes.length > 0) return;
      record.markRunner();
      // Wrapped first: the snapshot below keeps the guard's own `run` as mocha's.
      bodies.watchMocha(exports, (test) => swapped('mocha', mochaTitles(test)));
      verdictParts.runnerGlobals('mocha', /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis)));
      for (const name of ['Runner', 'Runnable', 'Test', 'Suite', 'Hook']) mocha.snapshot(name, exports[name]);
    },
    chaiLoaded: (chai) => {
      state.chaiConfig(/** @type {{ config?: unknown }} */ (chai));
      const prototype = chaiModulePrototype(chai);
      if (prototype) verdictParts.assertionMethods(prototype, "chai's Assertion.prototype");
    },
    jestEnvironment: () => record.markRunner(),
    jestTestFn: (test, declared) => {
      // Before the guard wraps it: a function swapped in earlier would be what its wrapper sees end.
      if (bodies.jestFnReplaced(test, declared)) swapped('jest', jestTitles(test));
      bodies.watchJestTest(test);
    },
    jestSetup: (global) => {
      // jest runs each test file in a realm of its own: its intrinsics are not the guard's.
      verdictParts.intrinsicsOf(global);
      verdictParts.runnerGlobals('jest', global);
      watchMatchers(/** @type {MatchersHolder | undefined} */ (global[MATCHERS]), 'jest');
      state.jestHandlers(global);
      watchJestEnvironment(global, watch.environment);
      watch.sourceText(global);
    },
    vitestWorker: () => {
      record.markWorker();
      verdictParts.runnerGlobals('vitest', /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis)));
    },
    vitestTest: (task) => {
      // Once the tests' `expect` exists (the first test): the assertion objects' prototype.
      const chai = chaiWatched ? null : chaiAssertionPrototype(globalThis);
      chaiWatched = true;
      if (chai) verdictParts.assertionMethods(chai, "chai's Assertion.prototype");
      bodies.watchVitestTest(task);
    },
    vitestFilesRun: () => record.workerDone(),
    ...(nodeTestReported ? { nodeTestReported } : {}),
  });
  guardVitestMatchers(watchMatchers);
}

/**
 * A test as the record names it: its file relative to the checkout when under it, its error capped.
 * @param {EndedTest} test
 * @param {string} root
 * @returns {GuardTestCase}
 */
function testCase(test, root) {
  /** @type {GuardTestCase} */
  const named = { file: test.file === null ? null : relativeFile(root, test.file), titles: test.titles, outcome: test.outcome };
  if (test.error) {
    named.message = test.error.message.slice(0, MESSAGE_CHARS);
    if (test.error.stack !== undefined) named.stack = test.error.stack.slice(0, STACK_CHARS);
  }
  return named;
}

/**
 * @param {string} root
 * @param {string} file an absolute path
 */
function relativeFile(root, file) {
  if (!isAbsolute(file)) return file;
  const rel = relative(root, file);
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? file : rel.split(sep).join('/');
}

/**
 * jest hands its tests a `process` of its own, with a copy of the environment: that copy is watched too.
 * @param {Record<string | symbol, unknown>} global the test environment's
 * @param {(env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv} watchEnvironment
 */
function watchJestEnvironment(global, watchEnvironment) {
  try {
    const own = /** @type {{ env?: NodeJS.ProcessEnv } | undefined} */ (global.process);
    if (own && own.env && typeof own.env === 'object' && own.env !== process.env) own.env = watchEnvironment(own.env);
  } catch {
    // a `process` jest made read-only: its environment stays unwatched (docs/security.md)
  }
}

/**
 * mocha: its classes' methods as loaded, checked at each test's end and at exit.
 * @param {GuardRecord} record
 */
function mochaClasses(record) {
  /** @type {[string, Record<string, unknown>, string, unknown][]} */
  const classes = [];
  /**
   * @param {string} name
   * @param {unknown} Class
   */
  const snapshot = (name, Class) => {
    if (typeof Class !== 'function' || !Class.prototype) return;
    for (const key of Object.getOwnPropertyNames(Class.prototype)) {
      const value = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(Class.prototype, key)).value;
      if (typeof value === 'function') classes.push([`mocha ${name}.prototype.${key}`, Class.prototype, key, value]);
    }
  };
  const check = () => {
    for (const [name, prototype, key, value] of classes) {
      if (prototype[key] !== value) record.event('framework_changed', { file: null, line: null }, `${name} replaced`);
    }
  };
  process.on('exit', check);
  return { classes, snapshot, check };
}

/**
 * vitest: its matcher table, defined on globalThis (its worker state is followed in test-events/).
 * @param {WatchMatchers} watchMatchers
 */
function guardVitestMatchers(watchMatchers) {
  const defineProperty = Object.defineProperty;
  const object =
    /** @type {{ defineProperty: (this: unknown, target: unknown, key: PropertyKey, descriptor: PropertyDescriptor) => unknown }} */ (
      /** @type {unknown} */ (Object)
    );
  object.defineProperty = function (target, key, descriptor) {
    if (target === globalThis && key === MATCHERS && descriptor && typeof descriptor.get === 'function')
      return defineProperty.call(this, target, key, matchersGetter(/** @type {Getter} */ (descriptor)));
    if (
      target === globalThis &&
      key === MATCHERS &&
      descriptor &&
      descriptor.value !== null &&
      typeof descriptor.value === 'object'
    )
      watchMatchers(descriptor.value, 'vitest');
    return defineProperty.call(this, target, key, descriptor);
  };
  // vitest 4 and later define the table's holder as a getter that builds it anew at each read, around
  // one matcher table: each holder it builds hands out the same proxy of that table.
  /** @typedef {PropertyDescriptor & { get: (this: unknown) => unknown }} Getter */
  /** @param {Getter} descriptor */
  const matchersGetter = (descriptor) => {
    /** @type {unknown} */
    let raw = null;
    /** @type {unknown} */
    let proxy = null;
    /** @type {unknown} */
    let testers = null;
    return {
      ...descriptor,
      get() {
        const holder = /** @type {MatchersHolder | null | undefined} */ (descriptor.get.call(this));
        if (holder && typeof holder.matchers === 'object' && holder.matchers !== null) {
          if (raw !== holder.matchers) {
            raw = holder.matchers;
            watchMatchers(holder, 'vitest');
            proxy = holder.matchers;
            testers = holder.customEqualityTesters;
          } else {
            holder.matchers = proxy;
            holder.customEqualityTesters = testers;
          }
        }
        return holder;
      },
    };
  };
}

module.exports = { guardRunners };
