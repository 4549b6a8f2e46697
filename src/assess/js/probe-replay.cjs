'use strict';
// The arguments of a suite call as exact data, for the look from outside the runner (docs/design.md
// §3.3, src/assess/outside-look.ts): JSON that gives the same values back in a plain process, or
// nothing when any argument would come back otherwise (undefined, -0, NaN, a date, a class's object,
// a getter, an array with holes or extra keys). Part of the inlined probe runtime.

/** Deeper than this, or longer than this as text, the call is not replayed: a look of a few calls needs no large input. */
const MAX_DEPTH = 6;
const MAX_TEXT = 4000;

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
 * @returns {boolean}
 */
function isExact(value, depth) {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== 'object' || depth >= MAX_DEPTH) return false;
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  const keys = Object.getOwnPropertyNames(value);
  if (Array.isArray(value)) {
    if (keys.length !== value.length + 1) return false;
    for (let i = 0; i < value.length; i += 1) if (!ownValue(value, String(i), depth)) return false;
    return true;
  }
  return isPlainRecord(value) && keys.every((key) => ownValue(value, key, depth));
}

/**
 * An own enumerable data property (not a getter) holding exact data.
 * @param {object} value
 * @param {string} key
 * @param {number} depth
 * @returns {boolean}
 */
function ownValue(value, key, depth) {
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  return (
    descriptor !== undefined && descriptor.enumerable === true && 'value' in descriptor && isExact(descriptor.value, depth + 1)
  );
}

/**
 * The arguments as JSON, or undefined when they would not come back as they are.
 * @param {unknown[]} args
 * @returns {string | undefined}
 */
function replayText(args) {
  try {
    if (!args.every((arg) => isExact(arg, 0))) return undefined;
    const text = JSON.stringify(args);
    return text.length <= MAX_TEXT ? text : undefined;
  } catch {
    return undefined;
  }
}

module.exports = { replayText };
