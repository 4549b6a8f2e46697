'use strict';
// Strings and numbers as JavaScript code, and long texts shortened, for the canonical text of values
// (probe-canon.cjs): the same text in the original and in the patched process. Part of the inlined
// probe runtime: no imports, and nothing here throws.

const MAX_TEXT = 400;
/** What a long text keeps of its start and of its end: a value that differs near its end (a line appended) shows where. */
const KEPT_HEAD = 300;
const KEPT_TAIL = 80;

/**
 * FNV-1a, 32 bits, over UTF-16 code units, as 8 hex digits: a stable short hash of a long text.
 * @param {string} text
 * @returns {string}
 */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * Long texts keep their start, their end and a hash of the whole, so two different long values still differ.
 * @param {string} text
 * @returns {string}
 */
function shorten(text) {
  return text.length > MAX_TEXT ? `${text.slice(0, KEPT_HEAD)}…${text.slice(-KEPT_TAIL)}…#${fnv1a(text)}` : text;
}

/** @type {Record<string, string>} */
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

/**
 * A string as a single-quoted JavaScript literal.
 * @param {string} text
 * @returns {string}
 */
function quote(text) {
  let out = "'";
  for (const char of text) {
    const code = /** @type {number} */ (char.codePointAt(0));
    if (ESCAPES[char] !== undefined) out += ESCAPES[char];
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029 || (code >= 0xd800 && code <= 0xdfff))
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}'`;
}

/**
 * A number as code: `-0` keeps its sign.
 * @param {number} value
 * @returns {string}
 */
function numberText(value) {
  return Object.is(value, -0) ? '-0' : String(value);
}

/**
 * A property key as code: bare when it is an identifier, else quoted.
 * @param {string} key
 * @returns {string}
 */
function keyText(key) {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key);
}

module.exports = { fnv1a, keyText, numberText, quote, shorten };
