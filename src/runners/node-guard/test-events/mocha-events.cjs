'use strict';
// mocha, 2 to 12: its runner is an EventEmitter. It emits 'test' before a test's beforeEach hooks,
// 'fail' with the error when a test or a hook fails, and 'test end' once a test has its final state
// (a test retried ends once, after its last try; a pending one ends without starting). A hook's
// failure is a failure of its own in mocha's reports (`"before each" hook for "x"`), and an error
// that reaches mocha after its test passed fails that test after it ended.
const { EventEmitter } = require('node:events');
const { testError } = require('./test-error.cjs');

/** @typedef {import('./test-events.cjs').Listener} Listener */
/** @typedef {import('./test-events.cjs').Outcome} Outcome */
/**
 * A test, a hook or a suite as mocha hands it over, as far as this reads it.
 * @typedef {{ type?: string, state?: string, title?: unknown, file?: unknown, root?: unknown,
 *   parent?: Runnable, fullTitle?: unknown }} Runnable
 */

/**
 * Follows mocha's runner; returns what to check of each module node's require loads (mocha's own).
 * @param {Listener} listener
 * @returns {(loaded: unknown) => void}
 */
function followMocha(listener) {
  /** @type {WeakMap<object, unknown>} a test's error, from its 'fail' before its 'test end' */
  const errors = new WeakMap();
  /** @type {WeakSet<object>} */
  const started = new WeakSet();
  /** @type {WeakSet<object>} */
  const ended = new WeakSet();
  /**
   * @param {Runnable} runnable
   * @param {Outcome} outcome
   * @param {unknown} error
   * @param {boolean} again
   */
  const end = (runnable, outcome, error, again) =>
    listener.ended({
      runner: 'mocha',
      file: fileOf(runnable),
      titles: titlesOf(runnable),
      outcome,
      error: outcome === 'failed' ? testError(error) : null,
      key: runnable.type === 'test' ? runnable : null,
      again,
      started: started.has(runnable),
    });
  const emit = EventEmitter.prototype.emit;
  /**
   * @param {string | symbol} event
   * @param {unknown} runnable
   * @param {...unknown} rest
   */
  EventEmitter.prototype.emit = function (event, runnable, ...rest) {
    if ((event === 'test end' || event === 'test' || event === 'fail') && isRunnable(runnable)) {
      if (event === 'test' && runnable.type === 'test') {
        started.add(runnable);
        if (listener.started) listener.started();
      } else if (event === 'fail' && runnable.type === 'hook') end(runnable, 'failed', rest[0], false);
      else if (event === 'fail' && runnable.type === 'test') {
        if (ended.has(runnable)) end(runnable, 'failed', rest[0], true);
        else errors.set(runnable, rest[0]);
      } else if (event === 'test end' && runnable.type === 'test') {
        ended.add(runnable);
        const outcome = runnable.state === 'passed' ? 'passed' : runnable.state === 'failed' ? 'failed' : 'skipped';
        end(runnable, outcome, errors.get(runnable), false);
      }
    }
    return emit.call(this, event, runnable, ...rest);
  };
  return (loaded) => {
    const mocha = /** @type {{ [name: string]: unknown }} */ (loaded);
    if (typeof loaded === 'function' && typeof mocha.Runner === 'function' && typeof mocha.Runnable === 'function') {
      if (listener.mochaLoaded) listener.mochaLoaded(mocha);
    }
  };
}

/**
 * @param {unknown} value
 * @returns {value is Runnable}
 */
function isRunnable(value) {
  if (value === null || typeof value !== 'object') return false;
  const runnable = /** @type {Runnable} */ (value);
  return typeof runnable.fullTitle === 'function' && (runnable.type === 'test' || runnable.type === 'hook');
}

/**
 * The titles of its suites (below the root suite, which has none) and its own.
 * @param {Runnable} runnable
 */
function titlesOf(runnable) {
  const titles = [String(runnable.title)];
  for (let suite = runnable.parent; suite && !suite.root; suite = suite.parent) titles.unshift(String(suite.title));
  return titles;
}

/**
 * The file mocha loaded it from (a hook's, its suite's).
 * @param {Runnable} runnable
 * @returns {string | null}
 */
function fileOf(runnable) {
  for (let r = /** @type {Runnable | undefined} */ (runnable); r; r = r.parent) if (typeof r.file === 'string') return r.file;
  return null;
}

module.exports = { followMocha, titlesOf };
