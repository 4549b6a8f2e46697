'use strict';
// Canonical text of JavaScript values for the assessment's probe records (probe-record.ts): equal
// values give equal text in the original and in the patched process, so the two record files can be
// compared line by line. Nothing process-specific goes in: no addresses, ids or object identities.
// Part of the probe runtime (probe-runtime.cjs), inlined into instrumented files: it requires only
// probe-text.cjs (how strings and numbers are written), and nothing here may throw out to the caller
// (each value that cannot be read becomes `[?]`).

const { fnv1a, keyText, numberText, quote, shorten } = require('./probe-text.cjs');

const MAX_DEPTH = 4;
const MAX_ITEMS = 200;
/**
 * Values spelled out per canonical text, the rest shown as `[…]`: a receiver or an argument can hold
 * a whole application (a router, its settings, its caches), and a method the suite calls thousands
 * of times would spend the run's budget being spelled out. The same value gives the same text.
 */
const MAX_VALUES = 5000;
let valuesLeft = MAX_VALUES;

/**
 * @param {unknown} value
 * @returns {string}
 */
function tagOf(value) {
  return Object.prototype.toString.call(value).slice(8, -1);
}

/**
 * @param {unknown} value
 * @returns {boolean}
 */
function isError(value) {
  return value instanceof Error || tagOf(value) === 'Error';
}

/**
 * @param {{ name?: unknown, message?: unknown }} value
 * @returns {string}
 */
function errorText(value) {
  let name = 'Error';
  let message = '';
  try {
    name = String(value.name);
    message = String(value.message);
  } catch {
    // A hostile error: keep what was read.
  }
  return message ? `${name}: ${message}` : name;
}

/**
 * A child's text within its share of the values left: each of the `count` siblings still to come
 * gets as many, and what one leaves unused goes to the next. A large first property (a parser's
 * tokens) cannot use up the budget before a small last one (its `negatedExtglob` flag).
 * @template T
 * @param {number} count
 * @param {() => T} render
 * @returns {T}
 */
function shared(count, render) {
  const share = Math.max(1, Math.floor(valuesLeft / Math.max(1, count)));
  const rest = Math.max(0, valuesLeft - share);
  valuesLeft = Math.min(share, valuesLeft);
  try {
    return render();
  } finally {
    valuesLeft += rest;
  }
}

/**
 * The first MAX_ITEMS of `items`, each rendered within its share of the values left.
 * @template I
 * @param {I[]} items
 * @param {(item: I) => string} render
 * @returns {string[]}
 */
function eachShared(items, render) {
  const kept = items.slice(0, MAX_ITEMS);
  return kept.map((item, index) => shared(kept.length - index, () => render(item)));
}

/**
 * @param {unknown[]} items
 * @param {number} depth
 * @param {unknown[]} seen The objects around it (for cycles).
 * @returns {string}
 */
function listText(items, depth, seen) {
  const shown = eachShared(items, (item) => text(item, depth + 1, seen));
  if (items.length > MAX_ITEMS) shown.push(`…+${items.length - MAX_ITEMS}`);
  return shown.join(', ');
}

/**
 * Own enumerable string-keyed properties; accessors are not run (`[Getter]`).
 * @param {object} value
 * @param {number} depth
 * @param {unknown[]} seen
 * @returns {string}
 */
function propsText(value, depth, seen) {
  const keys = Object.keys(value);
  const parts = eachShared(keys, (key) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    return `${keyText(key)}: ${descriptor && 'value' in descriptor ? text(descriptor.value, depth + 1, seen) : '[Getter]'}`;
  });
  if (keys.length > MAX_ITEMS) parts.push(`…+${keys.length - MAX_ITEMS}`);
  return parts.length > 0 ? `{ ${parts.join(', ')} }` : '{}';
}

/**
 * @param {string} name
 * @param {string[]} entries
 * @returns {string}
 */
function entriesText(name, entries) {
  return entries.length > 0 ? `${name} { ${entries.join(', ')} }` : `${name} {}`;
}

/**
 * Objects of a built-in kind that has its own text; null for plain objects and class instances.
 * @param {object} value
 * @param {number} depth
 * @param {unknown[]} seen
 * @returns {string | null}
 */
function builtinText(value, depth, seen) {
  const tag = tagOf(value);
  if (Array.isArray(value)) return `[${listText(Array.from(value), depth, seen)}]`;
  if (tag === 'Date')
    return Number.isNaN(/** @type {Date} */ (value).getTime())
      ? 'Date(Invalid)'
      : `Date(${/** @type {Date} */ (value).toISOString()})`;
  if (tag === 'RegExp') return String(value);
  if (tag === 'Map')
    return entriesText(
      'Map',
      eachShared(
        Array.from(/** @type {Map<unknown, unknown>} */ (value)),
        ([k, v]) => `${text(k, depth + 1, seen)} => ${text(v, depth + 1, seen)}`,
      ),
    );
  if (tag === 'Set')
    return entriesText(
      'Set',
      eachShared(Array.from(/** @type {Set<unknown>} */ (value)), (v) => text(v, depth + 1, seen)),
    );
  if (tag === 'Promise') return 'Promise';
  if (tag === 'WeakMap' || tag === 'WeakSet' || tag === 'WeakRef') return tag;
  if (tag === 'Module') return '[Module]';
  if (tag === 'ArrayBuffer' || tag === 'SharedArrayBuffer') return `${tag}(${/** @type {ArrayBuffer} */ (value).byteLength})`;
  if (ArrayBuffer.isView(value)) {
    const name = (value.constructor && value.constructor.name) || tag;
    return tag === 'DataView'
      ? `DataView(${value.byteLength})`
      : `${name} [${listText(Array.from(/** @type {ArrayBufferView & ArrayLike<unknown>} */ (value)), depth, seen)}]`;
  }
  if (isError(value)) return errorText(value);
  return null;
}

/**
 * @param {object} value
 * @param {number} depth
 * @param {unknown[]} seen
 * @returns {string}
 */
function objectText(value, depth, seen) {
  if (seen.includes(value)) return '[Circular]';
  if (depth > MAX_DEPTH) return '[…]';
  seen.push(value);
  try {
    const builtin = builtinText(value, depth, seen);
    if (builtin !== null) return builtin;
    const proto = Object.getPrototypeOf(value);
    const props = propsText(value, depth, seen);
    if (proto === null || proto === Object.prototype) return props;
    const name = (proto.constructor && typeof proto.constructor.name === 'string' && proto.constructor.name) || 'Object';
    return `${name} ${props}`;
  } finally {
    seen.pop();
  }
}

/**
 * The canonical text of one value, at a depth, with the objects around it (for cycles).
 * @param {unknown} value
 * @param {number} depth
 * @param {unknown[]} seen
 * @returns {string}
 */
function text(value, depth, seen) {
  if (valuesLeft <= 0) return '[…]';
  valuesLeft--;
  try {
    switch (typeof value) {
      case 'string':
        return quote(value);
      case 'number':
        return numberText(value);
      case 'bigint':
        return `${value}n`;
      case 'boolean':
        return String(value);
      case 'undefined':
        return 'undefined';
      case 'symbol':
        return `Symbol(${value.description === undefined ? '' : value.description})`;
      case 'function':
        return `[Function ${value.name || '(anonymous)'}]`;
      default:
        return value === null ? 'null' : objectText(/** @type {object} */ (value), depth, seen);
    }
  } catch {
    return '[?]';
  }
}

/**
 * A value's canonical text, shortened when long.
 * @param {unknown} value
 * @returns {string}
 */
function canon(value) {
  valuesLeft = MAX_VALUES;
  return shorten(text(value, 0, []));
}

/**
 * The arguments of a call: each value's canonical text, joined by `, `.
 * @param {ArrayLike<unknown>} args
 * @returns {string}
 */
function argsText(args) {
  return Array.from(args, (arg) => canon(arg)).join(', ');
}

/**
 * What a call threw: `Name: message` for an error, else the value's canonical text.
 * @param {unknown} error
 * @returns {string}
 */
function thrownText(error) {
  try {
    return typeof error === 'object' && error !== null && isError(error) ? shorten(errorText(error)) : canon(error);
  } catch {
    return '[?]';
  }
}

module.exports = { canon, argsText, thrownText, fnv1a };
