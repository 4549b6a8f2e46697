'use strict';
// Where a test starts and ends, in each runner, told to `take` (spectra-coverage.cjs): null when a
// test starts, its title and state when it ends.
// - mocha's runner is an EventEmitter that emits 'test' before a test's beforeEach hooks and
//   'test end' after the test (and before its afterEach hooks);
// - node's runner, in the process that runs a test file, pushes `test:dequeue` right before a test
//   runs and `test:complete` right after, as objects into its reporter's Readable stream;
// - vitest's runner sets its worker state's `current` task to a test before the test's beforeEach
//   hooks and back to its suite once the test's result is set;
// - jest's circus runner hands every event to its test environment's `handleTestEvent`: 'test_start'
//   and 'test_done'.
const { EventEmitter } = require('node:events');
const { Readable } = require('node:stream');
const Module = require('node:module');

/** @typedef {import('./spectra-coverage.cjs').Take} Take */
/**
 * A test or task as its runner hands it over (mocha's `Test`, node's report, vitest's task, jest's
 * test), as far as the hook reads it.
 * @typedef {{ type?: string, state?: string, name?: string, fullTitle?: unknown, errors?: unknown[],
 *   result?: { state?: string }, suite?: Task, file?: Task, parent?: Task }} Task
 */

/** @param {Take} take */
function followMocha(take) {
  /**
   * @param {unknown} value
   * @returns {value is Task & { fullTitle: () => string }}
   */
  const isMochaTest = (value) =>
    value !== null &&
    typeof value === 'object' &&
    /** @type {Task} */ (value).type === 'test' &&
    typeof (/** @type {Task} */ (value).fullTitle) === 'function';
  const emit = EventEmitter.prototype.emit;
  /**
   * @param {string | symbol} event
   * @param {...unknown} args
   */
  EventEmitter.prototype.emit = function (event, ...args) {
    if ((event === 'test' || event === 'test end') && isMochaTest(args[0])) {
      const test = args[0];
      const state = test.state === 'failed' ? 'failed' : test.state === 'passed' ? 'passed' : 'skipped';
      take(event === 'test end' ? { title: test.fullTitle(), state } : null);
    }
    return emit.call(this, event, ...args);
  };
}

/** @param {Take} take */
function followNodeTest(take) {
  // The names of the suites the current test is nested in, by nesting level, so a test's title is
  // the one its report gives ("suite > test").
  /** @type {string[]} */
  const names = [];
  const push = Readable.prototype.push;
  /**
   * @param {{ type?: string, data?: { name: string, nesting: number, details?: { type?: string, passed?: boolean },
   *   skip?: unknown, todo?: unknown } } | null} chunk
   * @param {...BufferEncoding} rest
   */
  Readable.prototype.push = function (chunk, ...rest) {
    if (
      chunk !== null &&
      typeof chunk === 'object' &&
      (chunk.type === 'test:dequeue' || chunk.type === 'test:complete') &&
      chunk.data
    ) {
      const { name, nesting, details, skip, todo } = chunk.data;
      if (chunk.type === 'test:dequeue') {
        names.length = nesting;
        names[nesting] = name;
        take(null);
      } else if (details && details.type !== 'suite') {
        const state = skip || todo ? 'skipped' : details.passed ? 'passed' : 'failed';
        take({ title: [...names.slice(0, nesting), name].join(' > '), state });
      }
    }
    return push.call(this, chunk, ...rest);
  };
}

/**
 * vitest: its runner keeps the task it is running in its worker state, the object it defines on
 * globalThis as `__vitest_worker__`: `current` is a test from before its beforeEach hooks until its
 * result is set, then that test's suite again. Each state it defines gets `current` watched.
 * @param {Take} take
 */
function followVitest(take) {
  const defineProperty = Object.defineProperty;
  const watched = new WeakSet();
  /**
   * @param {Task} task
   * @returns {'passed' | 'failed' | 'skipped'}
   */
  const stateOf = (task) => {
    const state = task.result && task.result.state;
    return state === 'fail' ? 'failed' : state === 'pass' ? 'passed' : 'skipped';
  };
  /**
   * "file > suite > test", as vitest's report names it: the file task's name is its relative path.
   * @param {Task} task
   */
  const vitestTitle = (task) => {
    const titles = [];
    let top = task;
    for (let t = /** @type {Task | undefined} */ (task); t; t = t.suite) {
      if (t.name) titles.unshift(t.name);
      top = t;
    }
    // A suite's chain may stop below its file (vitest 3): the file's name leads all the same.
    if (task.file && top !== task.file) titles.unshift(task.file.name);
    return titles.join(' > ');
  };
  /** @param {{ current?: Task | null }} workerState */
  const watchCurrentTask = (workerState) => {
    if (watched.has(workerState)) return;
    watched.add(workerState);
    let current = workerState.current;
    /** @type {Task | null} */
    let running = null;
    defineProperty(workerState, 'current', {
      configurable: true,
      enumerable: true,
      get: () => current,
      /** @param {Task | null | undefined} task */
      set: (task) => {
        if (running && task !== running) {
          take({ title: vitestTitle(running), state: stateOf(running) });
          running = null;
        }
        if (task && task.type === 'test' && task !== running) {
          running = task;
          take(null);
        }
        current = task;
      },
    });
  };
  const object =
    /** @type {{ defineProperty: (this: unknown, target: unknown, key: PropertyKey, descriptor: PropertyDescriptor) => unknown }} */ (
      /** @type {unknown} */ (Object)
    );
  object.defineProperty = function (target, key, descriptor) {
    if (
      target === globalThis &&
      key === '__vitest_worker__' &&
      descriptor &&
      descriptor.value !== null &&
      typeof descriptor.value === 'object'
    )
      watchCurrentTask(descriptor.value);
    return defineProperty.call(this, target, key, descriptor);
  };
}

/**
 * jest: its environments are loaded by node's own require (the tests run inside them).
 * @param {Take} take
 */
function followJest(take) {
  const hooked = new WeakSet();
  /** @param {unknown} Environment a test environment class */
  const hookEnvironment = (Environment) => {
    if (typeof Environment !== 'function' || hooked.has(Environment)) return;
    hooked.add(Environment);
    const own = Environment.prototype.handleTestEvent;
    /**
     * @param {{ name?: string, test?: Task } | null} event
     * @param {unknown} state
     */
    Environment.prototype.handleTestEvent = function (event, state) {
      if (event && event.test && (event.name === 'test_start' || event.name === 'test_done')) {
        if (event.name === 'test_start') take(null);
        else {
          const titles = [];
          for (let block = event.test.parent; block && block.parent; block = block.parent) titles.unshift(block.name);
          take({
            title: [...titles, event.test.name].join(' > '),
            state: event.test.errors && event.test.errors.length > 0 ? 'failed' : 'passed',
          });
        }
      }
      return own ? own.call(this, event, state) : undefined;
    };
  };
  const loader = /** @type {{ _load: (this: unknown, request: unknown, ...rest: unknown[]) => unknown }} */ (
    /** @type {unknown} */ (Module)
  );
  const load = loader._load;
  loader._load = function (request, ...rest) {
    const loaded = /** @type {{ [name: string]: unknown } | null | undefined} */ (load.call(this, request, ...rest));
    if (typeof request === 'string' && /jest-environment-(node|jsdom)/.test(request) && loaded) {
      hookEnvironment(loaded.TestEnvironment);
      hookEnvironment(loaded.default);
    }
    return loaded;
  };
}

module.exports = { followMocha, followNodeTest, followVitest, followJest };
