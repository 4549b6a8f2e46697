'use strict';
// jest's circus runner (jest 27 and later) hands every event to its test environment's
// `handleTestEvent`: 'setup' once the tests' globals are made, 'test_start' before a test's
// beforeEach hooks, 'test_done' after its afterEach hooks (again after each retry: the last is its
// outcome), 'test_skip' and 'test_todo' for tests that do not run, 'test_fn_start' right before it
// calls a test's body (its `fn`, read then), and 'add_test' as a test file declares a test, after
// circus added the test to its describe block (the environment's handler runs after circus's own). The
// function declared is kept, so that one circus is handed in its place later (a repository's module
// that swaps each test's `fn` as circus adds it) is told. Its environments are loaded by
// node's own require (jest 27's module is the class itself, later ones export it by name); the test
// file is what circus told `expect` (its state's `testPath`), in the environment's global.
const { testError } = require('./test-error.cjs');

/** @typedef {import('./test-events.cjs').Listener} Listener */
/** @typedef {{ [key: string | symbol]: unknown }} Global */
/**
 * A test or a describe block as circus hands it over, as far as this reads it.
 * @typedef {{ name?: string, parent?: Block, errors?: unknown[], fn?: unknown }} Block
 */

const MATCHERS = Symbol.for('$$jest-matchers-object');

/**
 * Follows the environments jest loads; returns what to check of each module node's require loads.
 * @param {Listener} listener
 * @returns {(request: unknown, loaded: unknown) => void}
 */
function followJest(listener) {
  const hooked = new WeakSet();
  /** @type {WeakMap<object, unknown>} each test's function as its file declared it */
  const declared = new WeakMap();
  /** @param {unknown} Environment a test environment class */
  const hookEnvironment = (Environment) => {
    if (typeof Environment !== 'function' || !Environment.prototype || hooked.has(Environment)) return;
    hooked.add(Environment);
    if (listener.jestEnvironment) listener.jestEnvironment();
    const own = Environment.prototype.handleTestEvent;
    /**
     * @this {{ global?: Global }}
     * @param {{ name?: string, test?: Block, fn?: unknown } | null} event
     * @param {unknown} state
     */
    Environment.prototype.handleTestEvent = function (event, state) {
      const name = event && event.name;
      if (name === 'setup' && this.global && listener.jestSetup) listener.jestSetup(this.global);
      else if (name === 'test_start' && listener.started) listener.started();
      else if (name === 'add_test' && event) rememberDeclared(declared, event, state);
      // Right before circus reads the test's `fn` and calls it (after its beforeEach hooks).
      else if (name === 'test_fn_start' && event && event.test && listener.jestTestFn)
        listener.jestTestFn(event.test, declared.get(event.test));
      else if ((name === 'test_done' || name === 'test_skip' || name === 'test_todo') && event && event.test)
        listener.ended(endedTest(event.test, name, this.global));
      return own ? own.call(this, event, state) : undefined;
    };
  };
  return (request, loaded) => {
    if (typeof request !== 'string' || !loaded || !/jest-environment-(node|jsdom)/.test(request)) return;
    const exports = /** @type {{ [name: string]: unknown }} */ (loaded);
    if (typeof exports.TestEnvironment === 'function' || typeof exports.default === 'function') {
      hookEnvironment(exports.TestEnvironment);
      hookEnvironment(exports.default);
    } else hookEnvironment(loaded);
  };
}

/**
 * The test circus just added for an 'add_test' event (the last child of the describe block being
 * declared), with the function the test file handed over.
 * @param {WeakMap<object, unknown>} declared
 * @param {{ fn?: unknown }} event
 * @param {unknown} state circus's state
 */
function rememberDeclared(declared, event, state) {
  const block = /** @type {{ currentDescribeBlock?: { children?: unknown } } | null} */ (state);
  const children = block && block.currentDescribeBlock && block.currentDescribeBlock.children;
  const test = Array.isArray(children) ? /** @type {{ type?: unknown } | null} */ (children[children.length - 1]) : null;
  if (test && typeof test === 'object' && test.type === 'test') declared.set(test, event.fn);
}

/**
 * The test's titles, its describe blocks' first (circus's ROOT_DESCRIBE_BLOCK has no parent, and is no suite).
 * @param {Block} test
 */
function titlesOf(test) {
  const titles = [String(test.name)];
  for (let block = test.parent; block && block.parent; block = block.parent) titles.unshift(String(block.name));
  return titles;
}

/**
 * @param {Block} test
 * @param {string} name the event
 * @param {Global | undefined} global the environment's
 * @returns {import('./test-events.cjs').EndedTest}
 */
function endedTest(test, name, global) {
  const titles = titlesOf(test);
  const failed = name === 'test_done' && Array.isArray(test.errors) && test.errors.length > 0;
  return {
    runner: 'jest',
    file: testPath(global),
    titles,
    outcome: name !== 'test_done' ? 'skipped' : failed ? 'failed' : 'passed',
    error: failed ? jestError(/** @type {unknown[]} */ (test.errors)[0]) : null,
    key: test,
    again: false,
    started: name === 'test_done',
  };
}

/**
 * The test file, as circus set it in `expect`'s state.
 * @param {Global | undefined} global
 * @returns {string | null}
 */
function testPath(global) {
  const holder = /** @type {{ state?: { testPath?: unknown } } | undefined} */ (global && global[MATCHERS]);
  const path = holder && holder.state && holder.state.testPath;
  return typeof path === 'string' ? path : null;
}

/**
 * Circus keeps a test's error with the error made where the test was called: what was thrown, when it
 * is no error, is named through the latter (as jest's reporters do).
 * @param {unknown} entry `[thrown, asyncError]` or an error
 */
function jestError(entry) {
  const [thrown, made] = Array.isArray(entry) ? entry : [entry, undefined];
  const error = /** @type {{ stack?: unknown, message?: unknown } | null} */ (thrown);
  if (error && typeof error === 'object' && typeof error.stack !== 'string' && typeof error.message === 'string')
    return framesApart(error.message);
  if (error && typeof error === 'object' && (typeof error.stack === 'string' || typeof error.message === 'string'))
    return testError(error);
  const own = testError(thrown);
  const where = /** @type {{ stack?: unknown } | null | undefined} */ (made);
  return where && typeof where.stack === 'string' ? { message: own.message, stack: where.stack } : own;
}

/**
 * A message that holds its stack (circus replaces a failed `node:assert` error by its message with
 * the stack's frames written after it), as a message and that stack.
 * @param {string} message
 * @returns {import('./test-events.cjs').TestError}
 */
function framesApart(message) {
  const frames = /\n\s+at /.exec(message);
  return frames ? { message: message.slice(0, frames.index), stack: message } : { message };
}

module.exports = { followJest, titlesOf };
