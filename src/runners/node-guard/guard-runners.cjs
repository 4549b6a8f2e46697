'use strict';
// What the guard sees of each runner in the process that runs the tests: the tests it ends (counted
// by outcome, the judge checks them against the runner's reports) and, for jest and vitest, the
// matcher table `expect` reads (`expect.extend` writes it): a proxy records every write by code that
// is not a test. mocha's classes are checked by identity at each test's end and at exit.
//
// Where the tests start and end (as the repair engine's spectra hook, localize/spectra-hook/, reads them):
// - node's runner, in the process that runs a test file: `test:complete` objects pushed into its
//   reporter's Readable stream;
// - mocha: its runner's 'test end' events (an EventEmitter);
// - jest: its circus runner's events, handed to the test environment's `handleTestEvent`;
// - vitest: its worker state's `current` task (a test from its start until its result is set).
const { EventEmitter } = require('node:events');
const { Readable } = require('node:stream');
const Module = require('node:module');

const MATCHERS = Symbol.for('$$jest-matchers-object');

/** @typedef {import('./guard-record.cjs').GuardRecord} GuardRecord */
/** @typedef {{ matchers?: unknown }} MatchersHolder what `expect` keeps its matcher table in */
/** @typedef {{ [name: string]: unknown }} Exports a module's exports, as far as the guard reads them */
/** @typedef {(holder: MatchersHolder | null | undefined, runner: string) => void} WatchMatchers */
/**
 * A test as its runner hands it over (mocha's `Test`, node's report, jest's and vitest's tasks), as
 * far as the guard reads it.
 * @typedef {{ type?: string, state?: string, fullTitle?: unknown, name?: string, errors?: unknown[],
 *   result?: { state?: string }, data?: { skip?: unknown, todo?: unknown, details?: { type?: string, passed?: boolean } } }} RunnerObject
 */

/**
 * @param {GuardRecord} record
 * @param {import('./guard-caller.cjs').Caller['caller']} caller
 */
function guardRunners(record, caller) {
  const watchMatchers = matcherWatch(record, caller);
  const mocha = guardMocha(record);
  guardNodeTest(record);
  guardRequired(record, watchMatchers, mocha);
  guardVitest(record, watchMatchers);
}

/**
 * A function that puts a matcher table (jest's, vitest's) behind a proxy that records every write.
 * @param {GuardRecord} record
 * @param {import('./guard-caller.cjs').Caller['caller']} caller
 * @returns {WatchMatchers}
 */
function matcherWatch(record, caller) {
  const proxied = new WeakSet();
  /** The matcher table behind `expect`, with every write recorded. */
  return (holder, runner) => {
    if (!holder || typeof holder.matchers !== 'object') return;
    // An object (jest and vitest never hand a null one: `new Proxy` would throw on it).
    const matchers = /** @type {object} */ (holder.matchers);
    if (proxied.has(matchers)) return;
    /** @param {PropertyKey} key */
    const note = (key) => {
      const who = caller();
      if (who) record.event('framework_changed', who, `${runner} expect matcher ${String(key)} replaced (expect.extend)`);
    };
    const proxy = new Proxy(matchers, {
      set: (target, key, value) => (note(key), Reflect.set(target, key, value)),
      defineProperty: (target, key, descriptor) => (note(key), Reflect.defineProperty(target, key, descriptor)),
      deleteProperty: (target, key) => (note(key), Reflect.deleteProperty(target, key)),
    });
    proxied.add(proxy);
    holder.matchers = proxy;
  };
}

/**
 * mocha: its classes' methods as loaded, checked at each test's end and at exit; its tests' ends.
 * @param {GuardRecord} record
 */
function guardMocha(record) {
  /** @type {[string, Record<string, unknown>, string, unknown][]} */
  const mochaClasses = [];
  /**
   * @param {string} name
   * @param {unknown} Class
   */
  const snapshot = (name, Class) => {
    if (typeof Class !== 'function' || !Class.prototype) return;
    for (const key of Object.getOwnPropertyNames(Class.prototype)) {
      const value = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(Class.prototype, key)).value;
      if (typeof value === 'function') mochaClasses.push([`mocha ${name}.prototype.${key}`, Class.prototype, key, value]);
    }
  };
  const checkMocha = () => {
    for (const [name, prototype, key, value] of mochaClasses) {
      if (prototype[key] !== value) record.event('framework_changed', { file: null, line: null }, `${name} replaced`);
    }
  };
  const emit = EventEmitter.prototype.emit;
  /**
   * @param {string | symbol} event
   * @param {RunnerObject | null} test
   * @param {...unknown} rest
   */
  EventEmitter.prototype.emit = function (event, test, ...rest) {
    if (
      event === 'test end' &&
      test !== null &&
      typeof test === 'object' &&
      test.type === 'test' &&
      typeof test.fullTitle === 'function'
    ) {
      checkMocha();
      record.testEnded(test.state === 'passed' ? 'passed' : test.state === 'failed' ? 'failed' : 'skipped');
    }
    return emit.call(this, event, test, ...rest);
  };
  process.on('exit', checkMocha);
  return { classes: mochaClasses, snapshot };
}

/**
 * node --test: the tests' ends, in the process that runs a file (the one that starts them reports them again).
 * @param {GuardRecord} record
 */
function guardNodeTest(record) {
  const orchestrates = process.execArgv.includes('--test') && !process.execArgv.includes('--test-isolation=none');
  const push = Readable.prototype.push;
  /**
   * @param {RunnerObject | null} chunk
   * @param {...BufferEncoding} rest
   */
  Readable.prototype.push = function (chunk, ...rest) {
    if (
      !orchestrates &&
      chunk !== null &&
      typeof chunk === 'object' &&
      chunk.type === 'test:complete' &&
      chunk.data &&
      chunk.data.details &&
      chunk.data.details.type !== 'suite'
    ) {
      const { skip, todo, details } = chunk.data;
      record.testEnded(skip || todo ? 'skipped' : details.passed ? 'passed' : 'failed');
    }
    return push.call(this, chunk, ...rest);
  };
}

/**
 * jest's environments and mocha's classes, loaded by node's own require.
 * @param {GuardRecord} record
 * @param {WatchMatchers} watchMatchers
 * @param {ReturnType<typeof guardMocha>} mocha
 */
function guardRequired(record, watchMatchers, mocha) {
  const hooked = new WeakSet();
  /** @param {unknown} Environment a test environment class */
  const hookEnvironment = (Environment) => {
    if (typeof Environment !== 'function' || hooked.has(Environment)) return;
    hooked.add(Environment);
    record.markRunner();
    const own = Environment.prototype.handleTestEvent;
    /**
     * @this {{ global?: Record<PropertyKey, MatchersHolder> }}
     * @param {{ name?: string, test: RunnerObject } | null} event
     * @param {unknown} state
     */
    Environment.prototype.handleTestEvent = function (event, state) {
      if (event && event.name === 'setup') watchMatchers(this.global && this.global[MATCHERS], 'jest');
      else if (event && event.name === 'test_done')
        record.testEnded(event.test.errors && event.test.errors.length > 0 ? 'failed' : 'passed');
      else if (event && (event.name === 'test_skip' || event.name === 'test_todo')) record.testEnded('skipped');
      return own ? own.call(this, event, state) : undefined;
    };
  };
  const loader = /** @type {import('./guard-exports.cjs').Loader} */ (/** @type {unknown} */ (Module));
  const load = loader._load;
  loader._load = function (request, ...rest) {
    const loaded = /** @type {Exports | (Function & Exports) | null | undefined} */ (load.call(this, request, ...rest));
    if (typeof request === 'string' && /jest-environment-(node|jsdom)/.test(request) && loaded) {
      hookEnvironment(loaded.TestEnvironment);
      hookEnvironment(loaded.default);
    } else if (
      loaded &&
      typeof loaded === 'function' &&
      typeof loaded.Runner === 'function' &&
      typeof loaded.Runnable === 'function' &&
      mocha.classes.length === 0
    ) {
      record.markRunner();
      for (const name of ['Runner', 'Runnable', 'Test', 'Suite', 'Hook']) mocha.snapshot(name, loaded[name]);
    }
    return loaded;
  };
}

/**
 * vitest: its matcher table and its worker state, defined on globalThis.
 * @param {GuardRecord} record
 * @param {WatchMatchers} watchMatchers
 */
function guardVitest(record, watchMatchers) {
  const defineProperty = Object.defineProperty;
  const object =
    /** @type {{ defineProperty: (this: unknown, target: unknown, key: PropertyKey, descriptor: PropertyDescriptor) => unknown }} */ (
      /** @type {unknown} */ (Object)
    );
  object.defineProperty = function (target, key, descriptor) {
    if (target === globalThis && key === MATCHERS && descriptor && typeof descriptor.get === 'function')
      return defineProperty.call(this, target, key, matchersGetter(/** @type {Getter} */ (descriptor)));
    if (target === globalThis && descriptor && descriptor.value !== null && typeof descriptor.value === 'object') {
      if (key === MATCHERS) watchMatchers(descriptor.value, 'vitest');
      else if (key === '__vitest_worker__') watchVitest(descriptor.value);
    }
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
    return {
      ...descriptor,
      get() {
        const holder = /** @type {MatchersHolder | null | undefined} */ (descriptor.get.call(this));
        if (holder && typeof holder.matchers === 'object' && holder.matchers !== null) {
          if (raw !== holder.matchers) {
            raw = holder.matchers;
            watchMatchers(holder, 'vitest');
            proxy = holder.matchers;
          } else holder.matchers = proxy;
        }
        return holder;
      },
    };
  };
  /** @param {{ current?: RunnerObject | null }} workerState */
  const watchVitest = (workerState) => {
    record.markWorker();
    let current = workerState.current;
    /** @type {RunnerObject | null} */
    let running = null;
    /**
     * @param {RunnerObject} task
     * @returns {import('./guard-record.cjs').Outcome}
     */
    const outcome = (task) => {
      const state = task.result && task.result.state;
      return state === 'fail' ? 'failed' : state === 'pass' ? 'passed' : 'skipped';
    };
    defineProperty(workerState, 'current', {
      configurable: true,
      enumerable: true,
      get: () => current,
      /** @param {RunnerObject | null | undefined} task */
      set: (task) => {
        if (running && task !== running) {
          record.testEnded(outcome(running));
          running = null;
        }
        if (task && task.type === 'test' && task !== running) {
          running = task;
          record.testStarted();
        }
        current = task;
      },
    });
  };
}

module.exports = { guardRunners };
