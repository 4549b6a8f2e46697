'use strict';
// Copies of what the probe holds still while it varies the plain arguments beside it (docs/design.md
// §3.3): a method's receiver and an argument that is an object of a class (a parser's state, a tree's
// node). A method's result depends on its receiver, so a generated call needs one as the suite's call
// found it, and its own: a call changes its receiver, and one generated call must not see another's
// changes nor touch the suite's objects. The copy keeps each object's class (its prototype), its own
// properties (symbols and accessors too) and their values copied in turn, cycles included; functions
// are shared, as the program shares them. What cannot be copied faithfully (a promise, a weak map, a
// native handle, a module namespace, anything with internal slots not listed here) or is too large
// refuses the copy, and the call gets no generated inputs. Part of the inlined probe runtime.

/** At most this many objects are copied for one held value: a receiver that reaches a whole document is not copied. */
const HELD_OBJECTS = 2000;

/** What a held value could not be copied for. */
class NotCopied extends Error {}

/** The typed arrays copied by element kind: the tag names the constructor. */
const TYPED = new Set([
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
]);

/**
 * A copy of `value`, or a NotCopied thrown.
 * @param {unknown} value
 * @returns {unknown}
 */
function heldCopy(value) {
  return copyInto(value, new Map(), { left: HELD_OBJECTS });
}

/**
 * @param {unknown} value
 * @param {Map<object, unknown>} seen The copies made so far, by original: cycles and shared objects stay so.
 * @param {{ left: number }} budget
 * @returns {unknown}
 */
function copyInto(value, seen, budget) {
  if (typeof value !== 'object' || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (--budget.left < 0) throw new NotCopied('too large');
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  const proto = Object.getPrototypeOf(value);
  /** @type {any} */
  let out;
  if (tag === 'Date') out = new Date(/** @type {Date} */ (value).getTime());
  else if (tag === 'RegExp') out = new RegExp(/** @type {RegExp} */ (value).source, /** @type {RegExp} */ (value).flags);
  else if (tag === 'Array') out = [];
  else if (tag === 'Map') out = new Map();
  else if (tag === 'Set') out = new Set();
  else if (TYPED.has(tag) && ArrayBuffer.isView(value))
    out = new /** @type {any} */ (globalThis)[tag](/** @type {ArrayLike<unknown>} */ (/** @type {unknown} */ (value)));
  else if (tag !== 'Object' && tag !== 'Error' && tag !== 'Arguments') throw new NotCopied(tag);
  else out = {};
  seen.set(value, out);
  if (Object.getPrototypeOf(out) !== proto) Object.setPrototypeOf(out, proto);
  if (tag === 'Map')
    for (const [key, item] of /** @type {Map<unknown, unknown>} */ (value))
      out.set(copyInto(key, seen, budget), copyInto(item, seen, budget));
  if (tag === 'Set') for (const item of /** @type {Set<unknown>} */ (value)) out.add(copyInto(item, seen, budget));
  copyOwn(/** @type {object} */ (value), out, { typed: ArrayBuffer.isView(value), seen, budget });
  if (Object.isFrozen(value)) Object.freeze(out);
  else if (Object.isSealed(value)) Object.seal(out);
  else if (!Object.isExtensible(value)) Object.preventExtensions(out);
  return out;
}

/**
 * Every own property of `from` onto `to`, values copied, accessors kept (a typed array's elements are already there).
 * @param {object} from
 * @param {any} to
 * @param {{ typed: boolean, seen: Map<object, unknown>, budget: { left: number } }} how
 */
function copyOwn(from, to, how) {
  for (const key of Reflect.ownKeys(from)) {
    if (how.typed && typeof key === 'string' && /^\d+$/.test(key)) continue;
    const descriptor = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(from, key));
    if ('value' in descriptor) descriptor.value = copyInto(descriptor.value, how.seen, how.budget);
    // An array's `length` is set by its elements, and cannot be redefined once they are there.
    if (Array.isArray(to) && key === 'length') {
      to.length = descriptor.value;
      continue;
    }
    Object.defineProperty(to, key, descriptor);
  }
}

/**
 * Whether a generated call's error says its receiver or an argument was a copy the class does not
 * own (a private field `#x`, an internal slot): the copies cannot stand in for this class's objects.
 * @param {unknown} error
 * @returns {boolean}
 */
function refusesCopies(error) {
  if (!(error instanceof TypeError) && !(error && /** @type {Error} */ (error).name === 'TypeError')) return false;
  const message = String(/** @type {Error} */ (error).message);
  return /private member|private field|Receiver must be an instance|incompatible receiver|called on incompatible/i.test(message);
}

module.exports = { NotCopied, heldCopy, refusesCopies };
