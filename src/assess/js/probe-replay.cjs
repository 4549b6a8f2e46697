'use strict';
// The arguments of a suite call as exact data, for the look from outside the runner (docs/design.md
// §3.3, src/assess/outside-look.ts): JSON that gives the same values back in a plain process
// (`revive`, in outside-call.cjs), or nothing when any argument would come back otherwise (a class's
// object, a function, a symbol, a getter, an array with holes or extra keys). What JSON has no
// literal for is written as a tagged object: `undefined`, -0, NaN and the infinities, a bigint, a
// date, a Buffer or a Uint8Array. A method's receiver is replayed by its own fields, when they are
// all exact data: the plain process gives an object of the method's class those fields. Part of the
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

/**
 * A date, a Buffer or a Uint8Array of exactly that class, with no fields of its own, tagged; else REFUSED.
 * @param {object} value
 * @param {{ left: number }} budget
 * @returns {unknown}
 */
function encodedObject(value, budget) {
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
  return REFUSED;
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
  if (!isPlainRecord(value)) return encodedObject(value, budget);
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
 * A tagged value given back.
 * @param {Record<string, unknown>} tagged
 * @returns {unknown}
 */
function untagged(tagged) {
  const value = tagged.value;
  switch (tagged[TAG]) {
    case 'number':
      return value === '-0' ? -0 : Number(value);
    case 'bigint':
      return BigInt(String(value));
    case 'date':
      return new Date(typeof value === 'number' ? value : NaN);
    case 'buffer':
      return Buffer.from(String(value), 'base64');
    case 'bytes':
      return new Uint8Array(Buffer.from(String(value), 'base64'));
    default:
      return undefined;
  }
}

/**
 * What `replayText` or `fieldsText` wrote, parsed and given back as the values it was written from.
 * @param {string} text
 * @returns {unknown}
 */
function revive(text) {
  /** @param {unknown} value @returns {unknown} */
  const back = (value) => {
    if (Array.isArray(value)) return value.map(back);
    if (typeof value !== 'object' || value === null) return value;
    const record = /** @type {Record<string, unknown>} */ (value);
    if (TAG in record) return untagged(record);
    /** @type {Record<string, unknown>} */
    const given = {};
    for (const [key, item] of Object.entries(record))
      Object.defineProperty(given, key, { value: back(item), writable: true, enumerable: true, configurable: true });
    return given;
  };
  return back(JSON.parse(text));
}

module.exports = { fieldsText, replayText, revive };
