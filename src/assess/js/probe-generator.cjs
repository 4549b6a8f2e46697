'use strict';
// One call of a probed generator function, in the JavaScript probe's runtime (probe-runtime.cjs). The
// call returns at once, before its body ran: what it does is what it yields. So the iterator it
// returns is handed to the program behind one that keeps each value drawn, as drawn; its record is
// written when it is over (its end, an error, or the program's `return()`, as `for…of` does on a
// `break`). Nothing is drawn that the program would not have drawn: a lazy or endless generator
// behaves as it did. A generator left half-drawn and never closed leaves no record. Suite records
// only: a generated call would have to drain it. Part of the inlined probe runtime.
const { prepare, finishSuiteCall } = require('./probe-call.cjs');
const { quietly } = require('./probe-generated.cjs');

/** @typedef {import('./probe-call.cjs').Call} Call */
/** @typedef {import('./probe-records.cjs').ProbeFile} ProbeFile */
/** @typedef {import('./probe-runtime.cjs').State} State */

/** At most this many values drawn are kept for the record. */
const YIELDED_KEPT = 200;

/** What a generator gave: the values drawn from it, what it returned, whether it was closed before its end. */
class Yielded {
  /**
   * @param {unknown[]} values
   * @param {unknown} returned
   * @param {boolean} stopped
   */
  constructor(values, returned, stopped) {
    this.values = values;
    if (returned !== undefined) this.returned = returned;
    if (stopped) this.stopped = true;
  }
}

/**
 * The wrapper's entry point for a generator function: `gen` is its original body, as a generator
 * function to call with the call's `this` and arguments.
 * @param {State} state
 * @param {ProbeFile} file
 * @param {Call} call
 * @param {Function} gen
 * @returns {IterableIterator<unknown>}
 */
function probeGenerator(state, file, call, gen) {
  const iterator = gen.apply(call.thisArg, call.argsLike);
  if (state.busy || (state.als && state.als.getStore() === true)) return iterator;
  /** @type {import('./probe-call.cjs').Before} */
  let started;
  try {
    // What a generator gave is what its consumer drew: a plain process would draw nothing, so it is not replayed.
    started = {
      ...quietly(state, () => prepare(state, file, { ...call, self: null })),
      replay: undefined,
      replayThis: undefined,
    };
  } catch {
    return iterator;
  }
  /** @type {unknown[]} */
  const values = [];
  let over = false;
  /** @param {import('./probe-records.cjs').Settled} settled */
  const finish = (settled) => {
    if (over) return;
    over = true;
    finishSuiteCall(state, started, settled, null);
  };
  /** @param {() => IteratorResult<unknown>} step @param {boolean} closing */
  const drawn = (step, closing) => {
    /** @type {IteratorResult<unknown>} */
    let result;
    try {
      result = step();
    } catch (error) {
      finish({ threw: error });
      throw error;
    }
    if (result && result.done) finish({ returned: new Yielded(values, result.value, closing) });
    else if (values.length < YIELDED_KEPT) values.push(result && result.value);
    return result;
  };
  return {
    next: (value) => drawn(() => iterator.next(value), false),
    return: (value) => drawn(() => (iterator.return ? iterator.return(value) : { done: true, value }), true),
    throw: (error) =>
      drawn(() => {
        if (iterator.throw) return iterator.throw(error);
        throw error;
      }, false),
    [Symbol.iterator]() {
      return this;
    },
  };
}

module.exports = { probeGenerator };
