'use strict';
// The arguments of a suite call as exact data, for the look from outside the runner (docs/design.md
// §3.3, src/assess/outside-look.ts): JSON that gives the same values back in a plain process, or
// nothing when any argument would come back otherwise (undefined, -0, NaN, a date, a class's object,
// a getter, an array with holes or extra keys). A method's receiver is replayed by its own fields,
// when they are all exact data: the plain process gives an object of the method's class those fields.
// Part of the inlined probe runtime.

/** Deeper than this, or longer than this as text, the call is not replayed: a look of a few calls needs no large input. */
const MAX_DEPTH = 6;
const MAX_TEXT = 4000;
/** Values looked at, at most, before a call is not replayed: no more fit in MAX_TEXT, and a receiver may hold a whole document. */
const MAX_VALUES = 2000;

/**
 * A plain object of any realm (jest runs each test file in its own): its prototype is a realm's
 * `Object.prototype` (whose own prototype is null and which holds `hasOwnProperty`), or null.
 * @param {object} value
 * @returns {boolean}
 */
function isPlainRecord(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto === null) return true;
  return Object.getPrototypeOf(proto) === null && Object.prototype.hasOwnProperty.call(proto, 'hasOwnProperty');
}

/**
 * @param {unknown} value
 * @param {number} depth
 * @param {{ left: number }} budget Values still to be looked at.
 * @returns {boolean}
 */
function isExact(value, depth, budget) {
  budget.left -= 1;
  if (budget.left < 0) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== 'object' || depth >= MAX_DEPTH) return false;
  if (Array.isArray(value) && value.length > budget.left) return false;
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  const keys = Object.getOwnPropertyNames(value);
  if (Array.isArray(value)) {
    if (keys.length !== value.length + 1) return false;
    for (let i = 0; i < value.length; i += 1) if (!ownValue(value, String(i), depth, budget)) return false;
    return true;
  }
  return isPlainRecord(value) && keys.every((key) => ownValue(value, key, depth, budget));
}

/**
 * An own enumerable data property (not a getter) holding exact data.
 * @param {object} value
 * @param {string} key
 * @param {number} depth
 * @param {{ left: number }} budget
 * @returns {boolean}
 */
function ownValue(value, key, depth, budget) {
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  return (
    descriptor !== undefined &&
    descriptor.enumerable === true &&
    'value' in descriptor &&
    isExact(descriptor.value, depth + 1, budget)
  );
}

/**
 * The arguments as JSON, or undefined when they would not come back as they are.
 * @param {unknown[]} args
 * @returns {string | undefined}
 */
function replayText(args) {
  try {
    const budget = { left: MAX_VALUES };
    if (!args.every((arg) => isExact(arg, 0, budget))) return undefined;
    const text = JSON.stringify(args);
    return text.length <= MAX_TEXT ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A method's receiver as JSON of its own fields, or undefined when one of them would not come back as
 * it is (a getter, a symbol key, a value that is not exact data). Private fields (`#x`) are not own
 * properties: a method that reads one throws in the plain process, and such a call does not count.
 * @param {unknown} receiver
 * @returns {string | undefined}
 */
function fieldsText(receiver) {
  try {
    if (typeof receiver !== 'object' || receiver === null || Array.isArray(receiver)) return undefined;
    if (Object.getOwnPropertySymbols(receiver).length > 0) return undefined;
    // No prototype: a field named `__proto__` stays a field.
    /** @type {Record<string, unknown>} */
    const fields = Object.create(null);
    const budget = { left: MAX_VALUES };
    for (const key of Object.getOwnPropertyNames(receiver)) {
      if (!ownValue(receiver, key, 0, budget)) return undefined;
      fields[key] = /** @type {Record<string, unknown>} */ (receiver)[key];
    }
    const text = JSON.stringify(fields);
    return text.length <= MAX_TEXT ? text : undefined;
  } catch {
    return undefined;
  }
}

module.exports = { fieldsText, replayText };
