'use strict';
// Canonical text of JavaScript values for the assessment's probe records (probe-record.ts): equal
// values give equal text in the original and in the patched process, so the two record files can be
// compared line by line. Nothing process-specific goes in: no addresses, ids or object identities.
// Part of the probe runtime (probe-runtime.cjs), inlined into instrumented files: no imports, and
// nothing here may throw out to the caller (each value that cannot be read becomes `[?]`).

const MAX_DEPTH = 4;
const MAX_TEXT = 400;
/** What a long text keeps of its start and of its end: a value that differs near its end (a line appended) shows where. */
const KEPT_HEAD = 300;
const KEPT_TAIL = 80;
const MAX_ITEMS = 200;
/**
 * Values spelled out per canonical text, the rest shown as `[…]`: a receiver or an argument can hold
 * a whole application (a router, its settings, its caches), and a method the suite calls thousands
 * of times would spend the run's budget being spelled out. The same value gives the same text.
 */
const MAX_VALUES = 5000;
let valuesLeft = MAX_VALUES;

/** FNV-1a, 32 bits, over UTF-16 code units, as 8 hex digits: a stable short hash of a long text. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Long texts keep their start, their end and a hash of the whole, so two different long values still differ. */
function shorten(text) {
  return text.length > MAX_TEXT ? `${text.slice(0, KEPT_HEAD)}…${text.slice(-KEPT_TAIL)}…#${fnv1a(text)}` : text;
}

const ESCAPES = {
  '\\': '\\\\',
  "'": "\\'",
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
  '\v': '\\v',
  '\0': '\\0',
};

/** A string as a single-quoted JavaScript literal. */
function quote(text) {
  let out = "'";
  for (const char of text) {
    const code = char.codePointAt(0);
    if (ESCAPES[char] !== undefined) out += ESCAPES[char];
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029 || (code >= 0xd800 && code <= 0xdfff))
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}'`;
}

function numberText(value) {
  return Object.is(value, -0) ? '-0' : String(value);
}

function keyText(key) {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key);
}

function tagOf(value) {
  return Object.prototype.toString.call(value).slice(8, -1);
}

function isError(value) {
  return value instanceof Error || tagOf(value) === 'Error';
}

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

/** The first MAX_ITEMS of `items`, each rendered within its share of the values left. */
function eachShared(items, render) {
  const kept = items.slice(0, MAX_ITEMS);
  return kept.map((item, index) => shared(kept.length - index, () => render(item)));
}

function listText(items, depth, seen) {
  const shown = eachShared(items, (item) => text(item, depth + 1, seen));
  if (items.length > MAX_ITEMS) shown.push(`…+${items.length - MAX_ITEMS}`);
  return shown.join(', ');
}

/** Own enumerable string-keyed properties; accessors are not run (`[Getter]`). */
function propsText(value, depth, seen) {
  const keys = Object.keys(value);
  const parts = eachShared(keys, (key) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    return `${keyText(key)}: ${descriptor && 'value' in descriptor ? text(descriptor.value, depth + 1, seen) : '[Getter]'}`;
  });
  if (keys.length > MAX_ITEMS) parts.push(`…+${keys.length - MAX_ITEMS}`);
  return parts.length > 0 ? `{ ${parts.join(', ')} }` : '{}';
}

function entriesText(name, entries) {
  return entries.length > 0 ? `${name} { ${entries.join(', ')} }` : `${name} {}`;
}

/** Objects of a built-in kind that has its own text; null for plain objects and class instances. */
function builtinText(value, depth, seen) {
  const tag = tagOf(value);
  if (Array.isArray(value)) return `[${listText(Array.from(value), depth, seen)}]`;
  if (tag === 'Date') return Number.isNaN(value.getTime()) ? 'Date(Invalid)' : `Date(${value.toISOString()})`;
  if (tag === 'RegExp') return String(value);
  if (tag === 'Map')
    return entriesText(
      'Map',
      eachShared(Array.from(value), ([k, v]) => `${text(k, depth + 1, seen)} => ${text(v, depth + 1, seen)}`),
    );
  if (tag === 'Set')
    return entriesText(
      'Set',
      eachShared(Array.from(value), (v) => text(v, depth + 1, seen)),
    );
  if (tag === 'Promise') return 'Promise';
  if (tag === 'WeakMap' || tag === 'WeakSet' || tag === 'WeakRef') return tag;
  if (tag === 'Module') return '[Module]';
  if (tag === 'ArrayBuffer' || tag === 'SharedArrayBuffer') return `${tag}(${value.byteLength})`;
  if (ArrayBuffer.isView(value)) {
    const name = (value.constructor && value.constructor.name) || tag;
    return tag === 'DataView' ? `DataView(${value.byteLength})` : `${name} [${listText(Array.from(value), depth, seen)}]`;
  }
  if (isError(value)) return errorText(value);
  return null;
}

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

/** The canonical text of one value, at a depth, with the objects around it (for cycles). */
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
        return value === null ? 'null' : objectText(value, depth, seen);
    }
  } catch {
    return '[?]';
  }
}

/** A value's canonical text, shortened when long. */
function canon(value) {
  valuesLeft = MAX_VALUES;
  return shorten(text(value, 0, []));
}

/** The arguments of a call: each value's canonical text, joined by `, `. */
function argsText(args) {
  return Array.from(args, (arg) => canon(arg)).join(', ');
}

/** What a call threw: `Name: message` for an error, else the value's canonical text. */
function thrownText(error) {
  try {
    return typeof error === 'object' && error !== null && isError(error) ? shorten(errorText(error)) : canon(error);
  } catch {
    return '[?]';
  }
}

module.exports = { canon, argsText, thrownText, fnv1a };
