'use strict';
// The arguments of a suite call as exact data, for the look from outside the runner (docs/design.md
// §3.3, src/assess/outside-look.ts): JSON that gives the same values back in a plain process
// (`revive`, in outside-revive.cjs), or nothing when any argument would come back otherwise (a class's
// object, a function, a symbol, a getter, an array with holes or extra keys). What JSON has no
// literal for is written as a tagged object: `undefined`, -0, NaN and the infinities, a bigint, a
// date, a Buffer or a Uint8Array, a Map or a Set, and an object of one of the program's classes (its
// class's name and its own fields: the plain process finds the class by that name in the called
// function's module and gives an object of it those fields, without its constructor). A method's
// receiver is replayed by its own fields, when they are all exact data: the plain process gives an
// object of the method's class those fields (outside-revive.cjs gives it all back). Part of the
// inlined probe runtime, and copied beside outside-call.cjs.

/** Deeper than this, or longer than this as text, the call is not replayed: a look of a few calls needs no large input. */
const MAX_DEPTH = 6;
const MAX_TEXT = 4000;
/** Values looked at, at most, before a call is not replayed: no more fit in MAX_TEXT, and a receiver may hold a whole document. */
const MAX_VALUES = 2000;
/** The key of a tagged value. A plain object of the program's own with this key is not replayed, so none is misread as one. */
const TAG = '$fixloop';
/** Returned by `encoded` for a value that would not come back as it is. */
const REFUSED = Symbol('refused');

/**
 * The name of the class a value was made by, of any realm (jest runs each test file in its own);
 * '' for an object with no prototype.
 * @param {object} value
 * @returns {string}
 */
function className(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto === null) return '';
  const constructor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value;
  return typeof constructor === 'function' ? constructor.name : '?';
}

/**
 * A plain object of any realm: its prototype is a realm's `Object.prototype` (whose own prototype is
 * null and which holds `hasOwnProperty`), or null.
 * @param {object} value
 * @returns {boolean}
 */
function isPlainRecord(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto === null) return true;
  return Object.getPrototypeOf(proto) === null && Object.prototype.hasOwnProperty.call(proto, 'hasOwnProperty');
}

/**
 * A number JSON cannot write as itself, tagged; the number itself otherwise.
 * @param {number} value
 * @returns {unknown}
 */
function encodedNumber(value) {
  if (Object.is(value, -0)) return { [TAG]: 'number', value: '-0' };
  return Number.isFinite(value) ? value : { [TAG]: 'number', value: String(value) };
}

/** A class's or a function's name a plain process can look up in a module: an identifier. */
const CLASS_NAME = /^[A-Za-z_$][\w$]*$/;
/** The own properties every function has by itself (strict or sloppy, arrow or not). */
const FUNCTION_OWN = new Set(['length', 'name', 'prototype', 'arguments', 'caller']);

/**
 * Whether a function is a built-in (its text is `[native code]`), not one of the program's.
 * @param {Function} fn
 * @returns {boolean}
 */
function isNative(fn) {
  return /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(fn));
}

/**
 * Whether every prototype above the value's, up to Object.prototype, is the program's: a class that
 * extends a built-in (a Map, an Error, an array) has internal slots no field can give back.
 * @param {object} value
 * @returns {boolean}
 */
function ofProgramClass(value) {
  let proto = Object.getPrototypeOf(value);
  while (proto !== null && !isPlainRecord(proto)) {
    const constructor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value;
    if (typeof constructor !== 'function' || isNative(constructor)) return false;
    proto = Object.getPrototypeOf(proto);
  }
  return proto !== null;
}

/**
 * A Map or a Set of exactly that class, its entries encoded; an object of one of the program's
 * classes, by its class's name and its own fields; REFUSED otherwise.
 * @param {object} value
 * @param {string} kind
 * @param {string} tag
 * @param {number} depth
 * @param {{ left: number }} budget
 * @returns {unknown}
 */
function encodedCollection(value, kind, tag, depth, budget) {
  const own = Object.getOwnPropertyNames(value);
  if ((kind === 'Map' && tag === '[object Map]') || (kind === 'Set' && tag === '[object Set]')) {
    if (own.length > 0) return REFUSED;
    const map = kind === 'Map';
    /** @type {unknown[]} */
    const items = [];
    for (const entry of map ? Map.prototype.entries.call(value) : Set.prototype.values.call(value)) {
      const parts = (map ? entry : [entry]).map((/** @type {unknown} */ part) => encoded(part, depth + 1, budget));
      if (parts.includes(REFUSED)) return REFUSED;
      items.push(map ? parts : parts[0]);
    }
    return { [TAG]: map ? 'map' : 'set', items };
  }
  if (tag !== '[object Object]' || !CLASS_NAME.test(kind) || own.includes(TAG) || !ofProgramClass(value)) return REFUSED;
  const fields = fieldsOf(value, own, depth, budget);
  return fields === REFUSED ? REFUSED : { [TAG]: 'instance', class: kind, fields };
}

/**
 * A function of the program's by its name, which the plain process looks up where the call is made,
 * as it looks up a class: one with a name that is an identifier (a bound function's is not), no
 * fields of its own (a memo table hung on it is state) and a text of its own (not a built-in's).
 * REFUSED otherwise. A name that finds another function there gives the original another result
 * outside than under the runner, so such a call never counts (src/assess/outside-look.ts).
 * @param {Function} value
 * @returns {unknown}
 */
function encodedFunction(value) {
  const name = Object.getOwnPropertyDescriptor(value, 'name')?.value;
  if (typeof name !== 'string' || !CLASS_NAME.test(name)) return REFUSED;
  const own = Object.getOwnPropertyNames(value).filter((key) => !FUNCTION_OWN.has(key));
  if (own.length > 0 || Object.getOwnPropertySymbols(value).length > 0) return REFUSED;
  if (isNative(value)) return REFUSED;
  return { [TAG]: 'function', name };
}

/**
 * A date, a Buffer or a Uint8Array of exactly that class, with no fields of its own, tagged; a Map, a
 * Set or an object of the program's class (encodedCollection); else REFUSED.
 * @param {object} value
 * @param {number} depth
 * @param {{ left: number }} budget
 * @returns {unknown}
 */
function encodedObject(value, depth, budget) {
  const kind = className(value);
  const tag = Object.prototype.toString.call(value);
  if (kind === 'Date' && tag === '[object Date]' && Object.getOwnPropertyNames(value).length === 0) {
    const time = Date.prototype.getTime.call(value);
    return { [TAG]: 'date', value: Number.isNaN(time) ? null : time };
  }
  if ((kind === 'Buffer' || kind === 'Uint8Array') && tag === '[object Uint8Array]') {
    const bytes = /** @type {Uint8Array} */ (value);
    budget.left -= bytes.length;
    if (budget.left < 0 || Object.getOwnPropertyNames(value).length !== bytes.length) return REFUSED;
    return { [TAG]: kind === 'Buffer' ? 'buffer' : 'bytes', value: Buffer.from(bytes).toString('base64') };
  }
  return encodedCollection(value, kind, tag, depth, budget);
}

/**
 * An own enumerable data property (not a getter), encoded; REFUSED when it is not one, or not exact.
 * @param {object} value
 * @param {string} key
 * @param {number} depth
 * @param {{ left: number }} budget
 * @returns {unknown}
 */
function ownValue(value, key, depth, budget) {
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  if (descriptor === undefined || descriptor.enumerable !== true || !('value' in descriptor)) return REFUSED;
  return encoded(descriptor.value, depth + 1, budget);
}

/**
 * The value as JSON-able data that `revive` turns back into it, or REFUSED.
 * @param {unknown} value
 * @param {number} depth
 * @param {{ left: number }} budget Values still to be looked at.
 * @returns {unknown}
 */
function encoded(value, depth, budget) {
  budget.left -= 1;
  if (budget.left < 0) return REFUSED;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value === undefined) return { [TAG]: 'undefined' };
  if (typeof value === 'number') return encodedNumber(value);
  if (typeof value === 'bigint') return { [TAG]: 'bigint', value: String(value) };
  if (typeof value === 'function') return encodedFunction(value);
  if (typeof value !== 'object' || depth >= MAX_DEPTH) return REFUSED;
  if (Array.isArray(value) && value.length > budget.left) return REFUSED;
  if (Object.getOwnPropertySymbols(value).length > 0) return REFUSED;
  const keys = Object.getOwnPropertyNames(value);
  if (Array.isArray(value)) {
    if (keys.length !== value.length + 1) return REFUSED;
    const items = [];
    for (let i = 0; i < value.length; i += 1) {
      const item = ownValue(value, String(i), depth, budget);
      if (item === REFUSED) return REFUSED;
      items.push(item);
    }
    return items;
  }
  if (!isPlainRecord(value)) return encodedObject(value, depth, budget);
  return keys.includes(TAG) ? REFUSED : fieldsOf(value, keys, depth, budget);
}

/**
 * An object's own fields, encoded, in an object with no prototype (a field named `__proto__` stays a
 * field); REFUSED when one is not exact.
 * @param {object} value
 * @param {string[]} keys
 * @param {number} depth
 * @param {{ left: number }} budget
 * @returns {unknown}
 */
function fieldsOf(value, keys, depth, budget) {
  /** @type {Record<string, unknown>} */
  const fields = Object.create(null);
  for (const key of keys) {
    const item = ownValue(value, key, depth, budget);
    if (item === REFUSED) return REFUSED;
    fields[key] = item;
  }
  return fields;
}

/**
 * JSON of the value, or undefined when it is refused or too long.
 * @param {() => unknown} encode
 * @returns {string | undefined}
 */
function textOf(encode) {
  try {
    const value = encode();
    if (value === REFUSED) return undefined;
    const text = JSON.stringify(value);
    return text.length <= MAX_TEXT ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The arguments as JSON, or undefined when they would not come back as they are.
 * @param {unknown[]} args
 * @returns {string | undefined}
 */
function replayText(args) {
  return textOf(() => {
    const budget = { left: MAX_VALUES };
    const items = args.map((arg) => encoded(arg, 0, budget));
    return items.includes(REFUSED) ? REFUSED : items;
  });
}

/**
 * A method's receiver as JSON of its own fields, or undefined when one of them would not come back as
 * it is (a getter, a symbol key, a value that is not exact data). Private fields (`#x`) are not own
 * properties: a method that reads one throws in the plain process, and such a call does not count.
 * @param {unknown} receiver
 * @returns {string | undefined}
 */
function fieldsText(receiver) {
  return textOf(() => {
    if (typeof receiver !== 'object' || receiver === null || Array.isArray(receiver)) return REFUSED;
    if (Object.getOwnPropertySymbols(receiver).length > 0) return REFUSED;
    return fieldsOf(receiver, Object.getOwnPropertyNames(receiver), -1, { left: MAX_VALUES });
  });
}

/**
 * A method's receiver of a subclass of the method's class, as JSON of an object of a program class
 * (its class's name and its own fields: the plain process makes it of the class that name finds), or
 * undefined when it is not one of those or a field is not exact.
 * @param {unknown} receiver
 * @returns {string | undefined}
 */
function instanceText(receiver) {
  return textOf(() => {
    if (typeof receiver !== 'object' || receiver === null) return REFUSED;
    const value = encoded(receiver, -1, { left: MAX_VALUES });
    const tagged = /** @type {Record<string, unknown>} */ (value);
    return typeof value === 'object' && value !== null && tagged[TAG] === 'instance' ? value : REFUSED;
  });
}

module.exports = { TAG, fieldsText, instanceText, replayText };
