'use strict';
// The calls the JavaScript probe makes itself (probe-runtime.cjs): the probed function called again on
// inputs generated around a call the suite made (probe-inputs.cjs), each recorded as `generated`, with
// the probe's own calls marked so that nothing they reach records or generates in turn. Part of the
// inlined probe runtime.
const { argsText } = require('./probe-canon.cjs');
const { heldCopy, refusesCopies } = require('./probe-held.cjs');
const { applyChange, fieldChanges, withChange } = require('./probe-fields.cjs');
const { neighbours } = require('./probe-inputs.cjs');
const { record, whenSettled, write } = require('./probe-records.cjs');

/** @typedef {import('./probe-runtime.cjs').Before} Before */
/** @typedef {import('./probe-runtime.cjs').State} State */
/** @typedef {import('./probe-records.cjs').Entry} Entry */
/** @typedef {import('./probe-records.cjs').Settled} Settled */
/** @typedef {import('./probe-fields.cjs').FieldChange} FieldChange */

/** A call's flag, as the wrapper passes it (probe-wrap.ts): the function is async. */
const ASYNC = 1;
// Room for the inputs made from the change's own values (probe-inputs.cjs) beside the others.
const PER_SUITE_CALL = 56;
const BASE_KEYS = 25;
const PER_PROCESS = 4000;
// Calls with copies (a receiver, a parser's state) cost what copying them costs: the inputs around one
// suite call stop after this long, and a function that ran over gets no more, so a test under a
// runner's own time limit (mocha's 2 s) is never pushed past it by the probe.
const HELD_MS = 100;
const MAX_KEYS = 20000;
/** Generated calls of one function stopped at their time limit before it gets no more. */
const MAX_TIMEOUTS = 4;

/**
 * @param {Set<string>} set
 * @param {string} key
 */
function addCapped(set, key) {
  if (set.size < MAX_KEYS) set.add(key);
}

/**
 * Runs `work` with the probe's own calls marked, so that nothing they reach records or generates;
 * `later` also marks what `work` starts and continues after an `await` (a generated async call).
 * @template T
 * @param {State} state
 * @param {() => T} work
 * @param {boolean} [later]
 * @returns {T}
 */
function quietly(state, work, later) {
  const was = state.busy;
  state.busy = true;
  try {
    return later && state.als ? state.als.run(true, work) : work();
  } finally {
    state.busy = was;
  }
}

/**
 * Whether the calls around this one hold copies (a method's receiver, an argument of a class): they
 * are bounded (no huge number, HELD_MS) and may be refused by the class.
 * @param {Before} before
 * @returns {boolean}
 */
function holdsCopies(before) {
  return before.heldThis || before.held.size > 0;
}

/**
 * The arguments and `this` of one generated call: the held ones (probe-held.cjs) copied afresh, so the
 * call changes only its own; null when one cannot be.
 * @param {Before} before
 * @param {unknown[]} args
 * @returns {{ args: unknown[], thisArg: unknown } | null}
 */
function ownCopies(before, args) {
  try {
    return {
      args: args.map((arg, index) => (before.held.has(index) ? heldCopy(arg) : arg)),
      thisArg: before.remake ? before.remake() : before.heldThis ? heldCopy(before.thisArg) : before.thisArg,
    };
  } catch {
    return null;
  }
}

/**
 * One generated call: the function itself, through its wrapper (which sees the probe busy). A call
 * that says a copy is not one of its class's objects (refusesCopies) is not recorded, and the
 * function gets no more generated calls with copies: they would all say so, in every version alike.
 * @param {State} state
 * @param {Before} before
 * @param {unknown[]} listed
 * @param {string} key
 * @param {FieldChange} [change] a held object's field set otherwise, on this call's copies
 * @returns {Entry[]}
 */
function runGenerated(state, before, listed, key, change) {
  /** @type {Entry[]} */
  const lines = [];
  // Quietly: a receiver made by its constructor (before.remake) may call probed functions.
  const own = quietly(state, () => ownCopies(before, listed));
  if (!own) return lines;
  const { args, thisArg } = own;
  if (change && !quietly(state, () => applyChange(change, thisArg, args))) return lines;
  const copied = holdsCopies(before);
  /** @type {Set<number> | null} */
  let path = null;
  /** @param {Settled} settled */
  const finish = (settled) => {
    if (copied && 'threw' in settled && refusesCopies(settled.threw)) {
      before.fn.refused = true;
      return null;
    }
    const receiver = before.heldThis ? { thisArg } : undefined;
    return quietly(state, () =>
      record(before, 'generated', key, args, settled, before.key, path, receiver, change ? change.label : undefined),
    );
  };
  /** @type {unknown} */
  let result;
  state.lastPath = null;
  try {
    const call = () => Reflect.apply(/** @type {Function} */ (before.self), thisArg, args);
    const bounded = holdingExit(state, () => quietly(state, () => within(state, call), true));
    if ('timedOut' in bounded) {
      before.fn.timedOut++;
      return lines;
    }
    result = bounded.value;
  } catch (error) {
    path = state.lastPath;
    const entry = finish(error instanceof HeldExit ? { exited: error.code } : { threw: error });
    if (entry) lines.push(entry);
    return lines;
  }
  path = state.lastPath;
  if (before.call.flags & ASYNC && result && typeof (/** @type {{ then?: unknown }} */ (result).then) === 'function') {
    whenSettled(/** @type {PromiseLike<unknown>} */ (result), (settled) => {
      const entry = finish(settled);
      if (entry) write(before.file, [entry]);
    });
    return lines;
  }
  const entry = finish({ returned: result });
  if (entry) lines.push(entry);
  return lines;
}

/**
 * The call within its time (probe-bounded.cjs), where node:vm can be reached; else as it is.
 * @param {State} state
 * @param {() => unknown} call
 * @returns {import('./probe-bounded.cjs').Bounded}
 */
function within(state, call) {
  return state.bounded ? state.bounded(call) : { value: call() };
}

/** A generated call's `process.exit`, thrown instead of ending the process. */
class HeldExit {
  /** @param {unknown} code */
  constructor(code) {
    this.code = code;
  }
}

/**
 * Runs a generated call with the realm's `process.exit` throwing instead: a method that ends the
 * process (a CLI's `help()`) would end the suite with it, and the exit is that input's outcome. An
 * exit after an `await` is past this hold, as it is for the suite's own calls.
 * @template T
 * @param {State} state
 * @param {() => T} work
 * @returns {T}
 */
function holdingExit(state, work) {
  const proc = /** @type {{ exit?: unknown } | undefined} */ (state.g.process);
  if (!proc || typeof proc.exit !== 'function') return work();
  const own = proc.exit;
  try {
    proc.exit = (/** @type {unknown} */ code) => {
      throw new HeldExit(code);
    };
  } catch {
    return work(); // a `process` whose `exit` cannot be written
  }
  try {
    return work();
  } finally {
    proc.exit = own;
  }
}

/**
 * The generated calls around one suite call (the first time the suite passes these arguments).
 * @param {State} state
 * @param {Before} before
 * @returns {Entry[]}
 */
function generate(state, before) {
  const { fn } = before;
  if (!before.snapshot || fn.bases.has(before.key) || fn.bases.size >= BASE_KEYS) return [];
  fn.bases.add(before.key);
  const snapshot = /** @type {unknown[]} */ (before.snapshot);
  /** @type {{ args: unknown[], change?: FieldChange }[]} */
  const candidates = quietly(state, () =>
    before.fieldsOnly
      ? fieldChanges(before, before.file.values).map((change) => ({ args: snapshot, change }))
      : neighbours(snapshot, fn.nullable, before.file.values, before.held, holdsCopies(before)).map((args) => ({ args })),
  );
  /** @type {Entry[]} */
  const lines = [];
  let made = 0;
  const deadline = holdsCopies(before) ? Date.now() + HELD_MS : Infinity;
  for (const { args, change } of candidates) {
    if (made >= PER_SUITE_CALL || state.shared.generated >= PER_PROCESS || (fn.refused && !before.remake)) break;
    // A function whose generated calls keep running out of time would spend the test's own time.
    if (fn.timedOut >= MAX_TIMEOUTS) break;
    if (Date.now() > deadline) {
      fn.heavy = true;
      break;
    }
    const key = quietly(state, () => withChange(argsText(args), change && change.label));
    if (fn.suiteKeys.has(key) || fn.generatedKeys.has(key)) continue;
    addCapped(fn.generatedKeys, key);
    made++;
    state.shared.generated++;
    lines.push(...runGenerated(state, before, args, key, change));
  }
  return lines;
}

module.exports = { ASYNC, BASE_KEYS, HELD_MS, MAX_KEYS, addCapped, generate, quietly };
