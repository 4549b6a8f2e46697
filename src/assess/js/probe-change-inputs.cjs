'use strict';
// Inputs made from the values the patches' changed lines name (change-values.ts, docs/design.md §3.3):
// a change that compares with `'https:'` or `10` is seen at `'HTTPS:'` and at `9` and `11`, the other
// side of the comparison, where the suite's own inputs rarely go. The literal itself and in the other
// letter case, before or after the suite's string; a number one either side of the change's constant;
// an options object with a key the change reads set either way. Part of the inlined probe runtime.
const { OBJECT_KEYS, copy, isPlainObject } = require('./probe-plain.cjs');

/**
 * @typedef {object} ChangeValues
 * @property {string[]} strings
 * @property {number[]} numbers
 * @property {string[]} keys
 */

/**
 * The other letter case of a string: upper case, or lower case where it is upper already.
 * @param {string} s
 */
function otherCase(s) {
  const upper = s.toUpperCase();
  return upper === s ? s.toLowerCase() : upper;
}

/**
 * A string's inputs from the change's strings: where the suite's string holds a literal, that part in
 * the other case, or taken out; the suite's string with each literal behind or in front; each
 * literal alone and in the other case.
 * @param {string} s
 * @param {string[]} literals
 * @returns {string[]}
 */
function stringsFromChange(s, literals) {
  // Kind by kind over every literal, so a cap keeps each literal's most telling inputs first: the
  // suite's string with the literal in it changed, or added at its end or start; then the literal alone.
  const within = literals.filter((l) => s.includes(l));
  const rows = [
    within.map((l) => s.replace(l, otherCase(l))),
    within.map((l) => s.replace(l, '')),
    literals.map((l) => s + l),
    literals.map((l) => l + s),
    literals,
    literals.map(otherCase),
  ];
  return [...new Set(rows.flat())];
}

/**
 * The inputs of one value made from the change's values (none for other kinds of value).
 * @param {unknown} value
 * @param {ChangeValues | null} values
 * @returns {unknown[]}
 */
function fromChange(value, values) {
  if (!values) return [];
  if (typeof value === 'string') return stringsFromChange(value, values.strings);
  if (typeof value === 'number') return values.numbers.flatMap((n) => [n - 1, n, n + 1]);
  if (!isPlainObject(value)) return [];
  /** @type {Record<string, unknown>[]} */
  const out = [];
  for (const key of values.keys.filter((k) => !Object.prototype.hasOwnProperty.call(value, k)))
    out.push({ ...copy(value), [key]: true }, { ...copy(value), [key]: false });
  // A string field takes the change's literals as they are and in the other case.
  for (const key of Object.keys(value)
    .slice(0, OBJECT_KEYS)
    .filter((k) => typeof value[k] === 'string'))
    for (const literal of values.strings)
      out.push({ ...copy(value), [key]: literal }, { ...copy(value), [key]: otherCase(literal) });
  return out;
}

module.exports = { fromChange };
