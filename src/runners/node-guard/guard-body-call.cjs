'use strict';
// How the guard's wrappers of test bodies (guard-bodies.cjs) call a body and note its end: transparently
// (the same `this`, arguments and return value), once per try, a body that raised staying raised.
const { testError } = require('./test-events/test-error.cjs');

/** How much of what the body raised the record keeps: enough to name it. */
const RAISED_CHARS = 300;

/** @typedef {{ body: 'returned' | 'raised' | 'unseen', raised?: string }} BodySeen what the record says of a body */
/** @typedef {(this: unknown, ...args: unknown[]) => unknown} AnyFunction */
/** @typedef {(raised: { error: unknown } | null) => void} End how a body ended: null when it returned */

/**
 * A new try of a test: its body unseen until it ends, kept under `key` (the last try is the test's).
 * @param {{ set: (key: object, seen: BodySeen) => unknown }} tries
 * @param {object} key
 * @returns {End}
 */
function beginTry(tries, key) {
  /** @type {BodySeen} */
  const seen = { body: 'unseen' };
  tries.set(key, seen);
  return (raised) => settle(seen, raised);
}

/**
 * The body's end, once: a body that raised stays raised (a later word cannot make it return).
 * @param {BodySeen} seen
 * @param {{ error: unknown } | null} raised
 */
function settle(seen, raised) {
  if (seen.body === 'raised') return;
  if (!raised) {
    seen.body = 'returned';
    return;
  }
  seen.body = 'raised';
  const error = testError(raised.error);
  const name = isError(raised.error) ? `${raised.error.name}: ` : '';
  seen.raised = `${name}${error.message}`.slice(0, RAISED_CHARS);
}

/**
 * An error, of this realm or another (jest runs the tests in a context of their own, with its own `Error`).
 * @param {unknown} value
 * @returns {value is Error}
 */
function isError(value) {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

/**
 * Calls a body and tells `end` how it ended, transparently: the same `this`, arguments (a callback at
 * `callbackAt` handed on wrapped, to see its error) and return value.
 * @param {(args: unknown[]) => unknown} call
 * @param {unknown[]} args
 * @param {number} callbackAt -1: no callback, the body ends when it returns or its promise settles
 * @param {(raised: { error: unknown } | null) => void} end
 */
function callWatched(call, args, callbackAt, end) {
  if (callbackAt >= 0) {
    const callback = /** @type {AnyFunction} */ (args[callbackAt]);
    args = [...args];
    args[callbackAt] = function (/** @type {unknown} */ error, /** @type {unknown[]} */ ...rest) {
      end(error ? { error } : null);
      return callback.call(this, error, ...rest);
    };
  }
  /** @type {unknown} */
  let result;
  try {
    result = call(args);
  } catch (error) {
    end({ error });
    throw error;
  }
  if (callbackAt < 0) {
    const then = result !== null && (typeof result === 'object' || typeof result === 'function') ? thenOf(result) : null;
    if (then)
      then.call(
        result,
        () => end(null),
        (/** @type {unknown} */ error) => end({ error }),
      );
    else end(null);
  }
  return result;
}

/** @param {object} value */
function thenOf(value) {
  const then = /** @type {{ then?: unknown }} */ (value).then;
  return typeof then === 'function' ? /** @type {AnyFunction} */ (then) : null;
}

/**
 * A body wrapped, for a runner that calls it with a `done` callback first when it declares a parameter
 * (mocha, jest: both read `fn.length`, which the wrapper keeps), or never (vitest: `callbackAt` -1).
 * @param {AnyFunction} body
 * @param {(raised: { error: unknown } | null) => void} end
 * @param {number} [callbackAt]
 * @returns {AnyFunction}
 */
function watchedBody(body, end, callbackAt = body.length > 0 ? 0 : -1) {
  /** @this {unknown} */
  const watched = function (/** @type {unknown[]} */ ...given) {
    return callWatched((a) => body.apply(this, a), given, callbackAt, end);
  };
  Object.defineProperty(watched, 'length', { value: body.length });
  return watched;
}

module.exports = { beginTry, callWatched, settle, watchedBody };
