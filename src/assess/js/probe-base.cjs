'use strict';
// What generated calls around a suite call start from (docs/design.md §3.3), taken before the call runs:
// the function itself, its plain arguments copied, and what is held still while they vary (an
// argument of a class, a method's receiver; probe-held.cjs). And what counts as a receiver: not the
// global, the module or its exports, nor a plain object that holds the function (a package's entry).
// Part of the inlined probe runtime.
const { HELD_MS } = require('./probe-generated.cjs');
const { heldCopy } = require('./probe-held.cjs');
const { remaker } = require('./probe-born.cjs');
const { copy, isPlainData } = require('./probe-inputs.cjs');
const { isPlainObject } = require('./probe-plain.cjs');

/** @typedef {import('./probe-call.cjs').Call} Call */
/** @typedef {import('./probe-call.cjs').FnState} FnState */
/** @typedef {import('./probe-records.cjs').ProbeFile} ProbeFile */
/** @typedef {import('./probe-runtime.cjs').State} State */

/**
 * @param {State} state
 * @param {ProbeFile} file
 * @param {unknown} thisArg
 * @returns {boolean}
 */
function isPlainThis(state, file, thisArg) {
  if (thisArg === undefined || thisArg === null || thisArg === state.g) return true;
  if (file.mod && typeof file.mod === 'object' && thisArg === /** @type {{ exports?: unknown }} */ (file.mod).exports)
    return true;
  return Object.prototype.toString.call(thisArg) === '[object Module]';
}

/**
 * A plain object that holds the function as one of its own properties: `api.parse(text)` through a
 * package's entry that re-exports it. Not a receiver with a state of its own, so it is not copied.
 * @param {unknown} thisArg
 * @param {Function} self
 * @returns {boolean}
 */
function isNamespaceOf(thisArg, self) {
  if (!isPlainObject(thisArg)) return false;
  // By descriptor: a getter (a lazy export) is not run.
  return Object.keys(thisArg).some((key) => {
    const descriptor = Object.getOwnPropertyDescriptor(thisArg, key);
    return descriptor !== undefined && 'value' in descriptor && descriptor.value === self;
  });
}

/**
 * What generated calls around this one start from, taken before it runs (it may change its receiver
 * and arguments): the function itself, the plain arguments copied, and the others (an object of a
 * class) and a method's receiver copied with their class (probe-held.cjs), to be held still while the
 * plain ones vary, or whose fields vary when no argument is plain (`fieldsOnly`). Null when nothing
 * can be varied, there is no way to name the function, or something held cannot be copied.
 * @param {State} state
 * @param {ProbeFile} file
 * @param {Call} call
 * @param {FnState} fn
 * @param {unknown[]} args
 * @returns {{ self: Function, snapshot: unknown[], held: ReadonlySet<number>, thisArg: unknown, heldThis: boolean, remake: (() => unknown) | null, fieldsOnly: boolean } | null}
 */
function generationBase(state, file, call, fn, args) {
  if (typeof call.self !== 'function') return null;
  const plain = args.map((arg) => isPlainData(arg, 0));
  const self = call.self();
  if (typeof self !== 'function') return null;
  const heldThis = !isPlainThis(state, file, call.thisArg) && !isNamespaceOf(call.thisArg, self);
  const held = new Set(plain.flatMap((isPlain, index) => (isPlain ? [] : [index])));
  // Nothing plain to vary: the fields of what is held are varied instead (probe-fields.cjs).
  const fieldsOnly = !plain.includes(true);
  if (fieldsOnly && !heldThis && held.size === 0) return null;
  // A class that refused copies (a private field) gets objects made again by the constructor call
  // that made the receiver, when nothing changed it since (probe-born.cjs).
  const remake = fn.refused && !fn.heavy && heldThis && held.size === 0 ? remaker(state, call.thisArg) : null;
  if ((fn.refused || fn.heavy) && (heldThis || held.size > 0) && !remake) return null;
  const started = Date.now();
  try {
    const snapshot = args.map((arg, index) => (held.has(index) ? heldCopy(arg) : copy(arg)));
    const thisArg = remake ? remake() : heldThis ? heldCopy(call.thisArg) : call.thisArg;
    return { self, snapshot, held, thisArg, heldThis, remake, fieldsOnly };
  } catch {
    return null;
  } finally {
    // A copy this slow would be made again for every input: one is all it gets.
    if (Date.now() - started > HELD_MS / 10) fn.heavy = true;
  }
}

/**
 * An object a method was called on: not the global, the module or its exports (a plain function's `this`).
 * @param {State} state
 * @param {ProbeFile} file
 * @param {unknown} thisArg
 * @returns {boolean}
 */
function isReceiver(state, file, thisArg) {
  return typeof thisArg === 'object' && thisArg !== null && !isPlainThis(state, file, thisArg);
}

module.exports = { generationBase, isReceiver };
