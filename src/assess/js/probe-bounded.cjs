'use strict';
// A generated call's time bounded: an input the function loops on (a count of 1e15, a NaN that a
// `while` never reaches) would hold the test process until the assessment's time ran out, and the
// look with it. The call runs inside a script of node:vm run with a timeout, whose watchdog stops any
// JavaScript running then, the function's own loop included; a call stopped so gives no record (its
// time, not its result, decided it, and it may end the other way in the other version). Part of the
// inlined probe runtime.

/** Each generated call's time. */
const CALL_MS = 250;
/** Where the call waits for the script, on the main realm's global. */
const SLOT = Symbol.for('fixloop.assess.probe.bounded');

/** @typedef {{ value: unknown } | { timedOut: true }} Bounded */

/**
 * A runner of calls within CALL_MS each, or null where node:vm cannot be reached (Node before
 * process.getBuiltinModule): the calls then run unbounded, as the suite's own do.
 * @param {typeof process.getBuiltinModule | null} builtin
 * @returns {((work: () => unknown) => Bounded) | null}
 */
function boundedCalls(builtin) {
  const vm = vmOf(builtin);
  if (!vm || typeof vm.Script !== 'function') return null;
  const script = new vm.Script(`globalThis[Symbol.for('fixloop.assess.probe.bounded')]()`);
  const main = /** @type {Record<symbol, unknown>} */ (new vm.Script('globalThis').runInThisContext());
  return (work) => {
    const previous = main[SLOT];
    main[SLOT] = work;
    try {
      return { value: script.runInThisContext({ timeout: CALL_MS }) };
    } catch (error) {
      if (error && /** @type {{ code?: unknown }} */ (error).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { timedOut: true };
      throw error;
    } finally {
      main[SLOT] = previous;
    }
  };
}

/**
 * @param {typeof process.getBuiltinModule | null} builtin
 * @returns {typeof import('node:vm') | null}
 */
function vmOf(builtin) {
  try {
    return builtin ? builtin('node:vm') : null;
  } catch {
    return null;
  }
}

module.exports = { CALL_MS, boundedCalls };
