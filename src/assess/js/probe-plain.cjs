'use strict';
// What the probe may generate inputs from, and how it copies it (docs/design.md §3.3): plain data
// (primitives, dates, plain objects and arrays a few levels deep, beside regular expressions, which are
// copied as they are), so a generated call never shares an object with the suite. Part of the inlined
// probe runtime.

const MAX_NESTING = 3;
/** An object's first keys are the ones varied: a few, so every argument gets its share of a call's inputs. */
const OBJECT_KEYS = 5;

/**
 * A Date of any realm (jest runs each test file in its own): by its tag, not `instanceof`.
 * @param {unknown} value
 * @returns {value is Date}
 */
function isDate(value) {
  return Object.prototype.toString.call(value) === '[object Date]';
}

/**
 * A regular expression (of any realm): copied, never varied, so the arguments beside it can be.
 * @param {unknown} value
 * @returns {value is RegExp}
 */
function isRegExp(value) {
  return Object.prototype.toString.call(value) === '[object RegExp]';
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isPlainObject(value) {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Plain data: primitives (not symbols), and arrays and plain objects of it nested at most three deep.
 * @param {unknown} value
 * @param {number} nesting
 * @returns {boolean}
 */
function isPlainData(value, nesting) {
  const type = typeof value;
  if (value === null || type === 'string' || type === 'number' || type === 'boolean' || type === 'undefined' || type === 'bigint')
    return true;
  if (isDate(value) || isRegExp(value)) return true;
  if (nesting >= MAX_NESTING) return false;
  if (Array.isArray(value))
    return Object.getPrototypeOf(value) === Array.prototype && value.every((item) => isPlainData(item, nesting + 1));
  return isPlainObject(value) && plainProperties(value, nesting);
}

/**
 * Each own enumerable property of `value` holds plain data (a value, not a getter); no key is a symbol.
 * @param {object} value
 * @param {number} nesting
 * @returns {boolean}
 */
function plainProperties(value, nesting) {
  return (
    Object.keys(value).every((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      return descriptor !== undefined && 'value' in descriptor && isPlainData(descriptor.value, nesting + 1);
    }) && Object.getOwnPropertySymbols(value).length === 0
  );
}

/** @param {unknown[]} args */
function allPlainData(args) {
  return args.every((arg) => isPlainData(arg, 0));
}

/**
 * @overload
 * @param {unknown[]} value
 * @returns {unknown[]}
 */
/**
 * @overload
 * @param {Record<string, unknown>} value
 * @returns {Record<string, unknown>}
 */
/**
 * @overload
 * @param {unknown} value
 * @returns {unknown}
 */
/**
 * A deep copy of plain data (checked by isPlainData first).
 * @param {unknown} value
 * @returns {unknown}
 */
function copy(value) {
  if (isDate(value)) return new Date(value.getTime());
  if (isRegExp(value)) return withPatternProperties(value, new RegExp(value.source, value.flags));
  if (Array.isArray(value)) return value.map(copy);
  if (typeof value !== 'object' || value === null) return value;
  return copyProperties(
    /** @type {Record<string, unknown>} */ (value),
    Object.getPrototypeOf(value) === null ? Object.create(null) : {},
  );
}

/**
 * @param {Record<string, unknown>} from
 * @param {Record<string, unknown>} to
 * @returns {Record<string, unknown>}
 */
function copyProperties(from, to) {
  for (const key of Object.keys(from)) to[key] = copy(from[key]);
  return to;
}

/**
 * A compiled pattern may carry what compiled it (picomatch keeps `regex.state`, tokens linked to each
 * other): the copy gets the same values, shared rather than copied, since code reads them and they
 * can be any depth. Getters are not run.
 * @param {RegExp} from
 * @param {RegExp} to
 * @returns {RegExp}
 */
function withPatternProperties(from, to) {
  for (const key of Object.keys(from)) {
    const descriptor = Object.getOwnPropertyDescriptor(from, key);
    if (descriptor && 'value' in descriptor)
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (to))[key] = descriptor.value;
  }
  return to;
}

module.exports = { OBJECT_KEYS, allPlainData, copy, isDate, isPlainData, isPlainObject };
