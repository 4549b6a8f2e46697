'use strict';
// A failed test's error as each runner holds it, as a message and a stack: an Error or what it
// serialized of one (vitest), node's wrapper around the test's own error, or a value that was thrown.

/** @typedef {import('./test-events.cjs').TestError} TestError */

/**
 * @param {unknown} value what the test threw, or what the runner made of it
 * @returns {TestError}
 */
function testError(value) {
  if (value !== null && typeof value === 'object') {
    const error = /** @type {{ message?: unknown, stack?: unknown }} */ (value);
    const stack = typeof error.stack === 'string' ? error.stack : undefined;
    if (typeof error.message === 'string')
      return stack === undefined ? { message: error.message } : { message: error.message, stack };
    if (stack !== undefined) return { message: stack.split('\n')[0] || '', stack };
  }
  return { message: `thrown: ${shown(value)}` };
}

/** @param {unknown} value */
function shown(value) {
  try {
    return typeof value === 'string' ? JSON.stringify(value) : String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

module.exports = { testError };
