'use strict';
// One call of a probed function, in the JavaScript probe's runtime (probe-runtime.cjs): the call run
// as the innermost probed call, whose markers make its path (probe-path.ts); before it, what its
// record needs (arguments, caller, receiver, the function itself for generated calls); after it, its
// record and the calls generated around it (probe-generated.cjs). Nothing here may throw out to the
// program: a step of the probe's own that fails leaves the call as it would have run. Part of the
// inlined probe runtime.
const { argsText, canon } = require('./probe-canon.cjs');
const { callerOf } = require('./probe-caller.cjs');
const { generationBase, isReceiver } = require('./probe-base.cjs');
const { ASYNC, BASE_KEYS, MAX_KEYS, addCapped, generate, quietly } = require('./probe-generated.cjs');
const { record, whenSettled, write } = require('./probe-records.cjs');
const { fieldsText, instanceText, replayText } = require('./probe-replay.cjs');
const { birthText } = require('./probe-born.cjs');

/** @typedef {import('./probe-caller.cjs').Caller} Caller */
/** @typedef {import('./probe-records.cjs').ProbeFile} ProbeFile */
/** @typedef {import('./probe-records.cjs').Settled} Settled */
/** @typedef {import('./probe-runtime.cjs').State} State */
/** @typedef {Function} Body The function's original code, bound to its call. */

/**
 * One call of a probed function, as the wrapper passes it (probe-wrap.ts).
 * @typedef {object} Call
 * @property {string} id
 * @property {unknown} thisArg
 * @property {ArrayLike<unknown>} argsLike
 * @property {(() => unknown) | null} self The function itself, for generated calls (null: none).
 * @property {number} flags ASYNC | METHOD | NESTED.
 */

/**
 * Per probed function: what the suite passed, and what was already generated.
 * @typedef {object} FnState
 * @property {Set<string>} suiteKeys
 * @property {Set<string>} generatedKeys
 * @property {Set<string>} bases
 * @property {Map<string, number>} stacks
 * @property {Map<number, unknown[]>} nullable
 * @property {boolean} refused A generated call refused a copy (probe-held.cjs): none are made again.
 * @property {boolean} heavy Its copies or its calls with them ran over HELD_MS: none are made again.
 * @property {number} timedOut Its generated calls stopped at their time limit (probe-bounded.cjs).
 */

/**
 * A suite call while it runs: what its record and its generated calls need once it is over.
 * @typedef {object} Before
 * @property {FnState} fn
 * @property {ProbeFile} file
 * @property {Call} call
 * @property {unknown[]} args
 * @property {string} key
 * @property {Caller | null} caller
 * @property {Function | null} self
 * @property {unknown[] | null} snapshot The arguments as the call got them, to generate around.
 * @property {ReadonlySet<number>} held The positions of `snapshot` held still and copied per generated call.
 * @property {unknown} thisArg The `this` of generated calls: the call's own, or a copy of its receiver (heldThis).
 * @property {boolean} heldThis
 * @property {(() => unknown) | null} remake Makes each generated call's receiver by its constructor (probe-born.cjs), when copies were refused.
 * @property {boolean} fieldsOnly No argument is plain data: the held objects' fields are varied (probe-fields.cjs).
 * @property {string | undefined} receiver
 * @property {string | undefined} replay The arguments as exact data, for the look from outside the runner (probe-replay.cjs).
 * @property {string | undefined} replayThis A method's receiver as its fields, exact data, for the same look.
 */

/**
 * A probed call on the stack, and the markers that ran in it.
 * @typedef {object} Frame
 * @property {string} id
 * @property {Set<number>} path
 */

// The caller is part of what a suite call is compared by (a method with no arguments is called by
// many tests): its stack is read for this many calls of one function and arguments.
const STACKS_PER_KEY = 200;
/** As in probe-wrap.ts: a class's method, whose receiver a plain process rebuilds from its fields (replayOf). */
const METHOD = 2;
/** As in probe-wrap.ts: defined inside another function, so its generated calls may change that call's locals. */
const NESTED = 4;
/** @type {ReadonlySet<number>} */
const NONE = new Set();

/**
 * Per probed function: what the suite passed, and what was already generated.
 * @param {State} state
 * @param {string} id
 * @returns {FnState}
 */
function fnState(state, id) {
  let fn = state.fns.get(id);
  if (!fn) {
    fn = {
      suiteKeys: new Set(),
      generatedKeys: new Set(),
      bases: new Set(),
      stacks: new Map(),
      nullable: new Map(),
      refused: false,
      heavy: false,
      timedOut: 0,
    };
    state.fns.set(id, fn);
  }
  return fn;
}

/**
 * What the wrapper needs to finish the record once the call is over; null when not recorded.
 * @param {State} state
 * @param {ProbeFile} file
 * @param {Call} call
 * @returns {Before}
 */
function prepare(state, file, call) {
  /** @type {unknown[]} */
  const args = Array.prototype.slice.call(call.argsLike);
  const key = argsText(args);
  const fn = fnState(state, call.id);
  const stacks = fn.stacks.get(key) || 0;
  /** @type {Caller | null} */
  let caller = null;
  if (stacks < STACKS_PER_KEY) {
    if (fn.stacks.size < MAX_KEYS) fn.stacks.set(key, stacks + 1);
    caller = callerOf(file, call.id);
  }
  args.forEach((arg, index) => {
    if (arg !== null && arg !== undefined) return;
    const seen = fn.nullable.get(index) || [];
    if (!seen.includes(arg)) fn.nullable.set(index, [...seen, arg]);
  });
  addCapped(fn.suiteKeys, key);
  // A method's receiver as it was: what the call did to `this` (a parser that builds its state) is a result too.
  const receiver = isReceiver(state, file, call.thisArg) ? canon(call.thisArg) : undefined;
  const base = (fn.bases.has(key) || fn.bases.size >= BASE_KEYS ? null : generationBase(state, file, call, fn, args)) ?? {
    self: null,
    snapshot: null,
    held: NONE,
    thisArg: call.thisArg,
    heldThis: false,
    remake: null,
    fieldsOnly: false,
  };
  return { fn, file, call, args, key, caller, ...base, receiver, ...replayOf(state, call, args) };
}

/**
 * Whether a method's receiver is an object of exactly the class that holds the method (`Counter` for
 * `lib.js#Counter.add`), not of a subclass, whose other methods may do otherwise: the plain process
 * rebuilds the receiver as an object of the class it finds by that name (a subclass's object, by its
 * own class's name: replayOf).
 * @param {Call} call
 * @returns {boolean}
 */
function ofItsClass(call) {
  const names = call.id.slice(call.id.lastIndexOf('#') + 1).split('.');
  if (names.length !== 2) return false;
  try {
    const prototype = Object.getPrototypeOf(call.thisArg);
    return prototype !== null && prototype.constructor.name === names[0];
  } catch {
    return false;
  }
}

/**
 * The call as the look from outside the runner makes it again: its arguments as exact data and, for a
 * method called on an instance, the constructor call that made it when its fields are as that left
 * them (probe-born.cjs: it also gives back private fields and what the constructor made), else its
 * own fields before the call, or, on an object of a subclass, that object as one of its own class
 * (a static method's receiver is its class, which the plain process finds by name). Either missing:
 * the call is not made again.
 * @param {State} state
 * @param {Call} call
 * @param {unknown[]} args
 * @returns {{ replay: string | undefined, replayThis: string | undefined }}
 */
function replayOf(state, call, args) {
  const onInstance = call.flags & METHOD && typeof call.thisArg !== 'function';
  // A receiver of exactly the method's class by its fields (or the call that made it); one of a
  // subclass (whose other methods may differ) as an object of its own class, found by that name.
  let replayThis;
  if (onInstance)
    replayThis = ofItsClass(call) ? (birthText(state, call.thisArg) ?? fieldsText(call.thisArg)) : instanceText(call.thisArg);
  const replay = onInstance && replayThis === undefined ? undefined : replayText(args);
  return { replay, replayThis };
}

/**
 * Whether calls are generated around this one: not in a run that turned them off, nor for a function
 * nested in another in a run that turned those off (probe-runtime.cjs's `generates`).
 * @param {Before} before
 */
function generatesAround(before) {
  return before.file.generates && (before.file.generatesNested || !(before.call.flags & NESTED));
}

/**
 * After the suite's call: its record, then the generated calls around it, in one append.
 * @param {State} state
 * @param {Before} before
 * @param {Settled} settled
 * @param {Set<number> | null} path
 */
function finishSuiteCall(state, before, settled, path) {
  try {
    const lines = [quietly(state, () => record(before, 'suite', before.key, before.args, settled, undefined, path))];
    if (generatesAround(before)) lines.push(...generate(state, before));
    write(before.file, lines);
  } catch {
    // The probe failed after the call: the call's own result stands.
  }
}

/**
 * Runs the body as the innermost probed call: the markers that run meanwhile go to its path, those
 * of an async body after an `await` too (its frame is found through AsyncLocalStorage; without it,
 * the path is what ran before the first `await`). The path (a Set, still growing while an async
 * body runs) is left in `state.lastPath`.
 * @param {State} state
 * @param {string} id
 * @param {Body} body
 * @param {ArrayLike<unknown>} argsLike
 * @returns {unknown}
 */
function inFrame(state, id, body, argsLike) {
  /** @type {Frame} */
  const frame = { id, path: new Set() };
  const depth = state.frames.length;
  state.frames.push(frame);
  try {
    return state.frameStore
      ? state.frameStore.run(frame, () => body.apply(undefined, argsLike))
      : body.apply(undefined, argsLike);
  } finally {
    state.frames.length = depth;
    state.lastPath = frame.path;
  }
}

/**
 * A marker ran: its number joins the innermost call's path when that call is of its function.
 * @param {State} state
 * @param {string} id
 * @param {number} k
 */
function mark(state, id, k) {
  const frame = state.frameStore ? state.frameStore.getStore() : state.frames[state.frames.length - 1];
  if (frame !== undefined && frame.id === id) frame.path.add(k);
}

/**
 * The wrapper's entry point: `body` is the function's original code, bound to its call.
 * @param {State} state
 * @param {ProbeFile} file
 * @param {Call} call
 * @param {Body} body
 * @returns {unknown}
 */
function probeCall(state, file, call, body) {
  if (state.busy || (state.als && state.als.getStore() === true)) return inFrame(state, call.id, body, call.argsLike);
  /** @type {Before | null} */
  let before = null;
  try {
    before = quietly(state, () => prepare(state, file, call));
  } catch {
    before = null;
  }
  if (!before) return inFrame(state, call.id, body, call.argsLike);
  /** @type {unknown} */
  let result;
  const { pending } = state.shared;
  const depth = pending.length;
  pending.push({ state, before, file });
  try {
    result = inFrame(state, call.id, body, call.argsLike);
  } catch (error) {
    finishSuiteCall(state, before, { threw: error }, state.lastPath);
    throw error;
  } finally {
    pending.length = depth;
  }
  const path = state.lastPath;
  if (call.flags & ASYNC && result && typeof (/** @type {{ then?: unknown }} */ (result).then) === 'function') {
    whenSettled(/** @type {PromiseLike<unknown>} */ (result), (settled) =>
      finishSuiteCall(state, /** @type {Before} */ (before), settled, path),
    );
  } else {
    finishSuiteCall(state, before, { returned: result }, path);
  }
  return result;
}

module.exports = { finishSuiteCall, mark, prepare, probeCall };
