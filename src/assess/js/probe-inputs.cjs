'use strict';
// Inputs generated around a call the test suite made, for the assessment (docs/design.md §3.3): the same
// arguments with one of them changed a little (a string without its last character, a number plus
// one, an object without a key or with a number moved, an array with its first or last item varied), where a
// patch that special-cases the suite's inputs shows itself.
// Only plain data is varied, from a copy (probe-plain.cjs), so a generated call never shares an object
// with the suite.
// The values the patches' changed lines name make inputs of their own (probe-change-inputs.cjs),
// taken in turn with the others. Part of the inlined probe runtime.
const { OBJECT_KEYS, allPlainData, copy, isDate, isPlainData, isPlainObject } = require('./probe-plain.cjs');
const { fromChange } = require('./probe-change-inputs.cjs');

/** @typedef {import('./probe-change-inputs.cjs').ChangeValues} ChangeValues */

const SEPARATORS = ['/', '\\', '.', ',', ':', ' ', '"', "'", '\n', '%'];
const PREFIXES = ['/', '\\', '.', ' '];
const MIDDLES = ['/', '\\', '.'];
const REPLACEMENTS = ['/', '\\', '.', ' ', ''];
// The huge one is past any array's length even divided by a thousand: an allocation of that many
// items (`new Array(parts).fill(0)`) throws a RangeError the call records, where one of 1e9 items
// filled the heap and ended the test process, and the assessment with it. Still exact in integer
// arithmetic (below 2 ** 53).
const HUGE = 1e15;
const NUMBERS = [0, 1, -1, HUGE, 0.5, NaN, Infinity];
/** An array's first element is varied this many ways (its own variants, the first ones). */
const ELEMENT_VARIANTS = 8;
/** And its last element, when it has more than one, this many ways. */
const LAST_ELEMENT_VARIANTS = 4;
const DAY = 86_400_000;
// A day or two either way, and a week: enough to cross a weekday, a month's end, a weekend or an ISO week.
const DATE_SHIFTS = [DAY, -DAY, 2 * DAY, -2 * DAY, 7 * DAY, -7 * DAY];
/** At most this many inputs of one value come from the change's values. */
const FROM_CHANGE = 16;

/** What a mark of the suite's string is swapped for: the characters escapers and tokenizers treat apart. */
const MARK_SWAPS = ['<', '&', '"', ' '];
/** The marks of one string varied: its first few distinct ones. */
const MARKS = 4;

/**
 * The string with each of its marks (a character neither a letter, a digit nor a space: `,` `&` `[`)
 * varied where it last occurs: a space before it and after it, the mark doubled, swapped for another.
 * A tokenizer or an escaper that a patch taught the suite's exact text (`,,`, `&amp;`) meets the same
 * text a little apart (`, ,`) or with another mark (`<amp;`). Each mark's variants in turn.
 * @param {string} s
 * @returns {string[]}
 */
function markVariants(s) {
  const marks = [...new Set([...s].filter((c) => /[^\p{L}\p{N}\s]/u.test(c)))].slice(0, MARKS);
  const perMark = marks.map((mark) => {
    const at = s.lastIndexOf(mark);
    const before = s.slice(0, at);
    const after = s.slice(at + mark.length);
    return [
      `${before} ${mark}${after}`,
      ...MARK_SWAPS.filter((swap) => swap !== mark).map((swap) => before + swap + after),
      `${before}${mark} ${after}`,
      before + mark + mark + after,
    ];
  });
  return interleave(perMark);
}

/** The digit runs of one string varied: its last few. */
const DIGIT_RUNS = 3;

/**
 * The string with each of its last digit runs varied as the number it spells: one more, one less, a
 * digit more, a digit fewer (`alpha.10` → `alpha.11`, `alpha.9`, `alpha.100`, `alpha.1`). Versions,
 * ports, sizes and positions live in strings; a fix that compares them as numbers, or a patch that
 * learnt the suite's exact text, meets the same text with another number. Each run's variants in turn.
 * @param {string} s
 * @returns {string[]}
 */
function digitVariants(s) {
  const runs = [...s.matchAll(/\d{1,15}/g)].slice(-DIGIT_RUNS);
  const perRun = runs.map((run) => {
    const digits = run[0];
    const at = /** @type {number} */ (run.index);
    const put = (/** @type {string} */ text) => s.slice(0, at) + text + s.slice(at + digits.length);
    const n = Number(digits);
    // Leading zeros (`007`) keep the width; other numbers are written as numbers are.
    const width = (/** @type {number} */ m) => (digits.startsWith('0') ? String(m).padStart(digits.length, '0') : String(m));
    return [
      put(width(n + 1)),
      ...(n > 0 ? [put(width(n - 1))] : []),
      put(`${digits}0`),
      ...(digits.length > 1 ? [put(digits.slice(0, -1))] : []),
    ];
  });
  return interleave(perRun);
}

/**
 * @param {string} s
 * @returns {string[]}
 */
function stringVariants(s) {
  const out = ['', s.slice(1), s.slice(0, -1)];
  for (const c of SEPARATORS) out.push(s + c);
  for (const c of PREFIXES) out.push(c + s);
  const middle = Math.floor(s.length / 2);
  for (const c of MIDDLES) out.push(s.slice(0, middle) + c + s.slice(middle));
  const first = [...s].findIndex((char) => SEPARATORS.includes(char));
  if (first >= 0) {
    const at = [...s].slice(0, first).join('').length;
    for (const c of REPLACEMENTS) out.push(s.slice(0, at) + c + s.slice(at + 1));
  }
  out.push(s.toUpperCase(), s.toLowerCase(), s + s);
  return interleave([out, markVariants(s), digitVariants(s)]);
}

/** @param {number} n */
function numberVariants(n) {
  return [...NUMBERS.slice(0, 3), n + 1, n - 1, -n, ...NUMBERS.slice(3)];
}

/** @param {bigint} n */
function bigintVariants(n) {
  return [0n, 1n, -1n, n + 1n, n - 1n, -n];
}

/** @param {Date} d */
function dateVariants(d) {
  const time = d.getTime();
  return Number.isNaN(time) ? [] : DATE_SHIFTS.map((shift) => new Date(time + shift));
}

/**
 * @param {unknown[]} a
 * @param {ChangeValues | null} values
 * @returns {unknown[][]}
 */
function arrayVariants(a, values) {
  if (a.length === 0) return [];
  const out = [[], [copy(a[0])], copy(a.slice(0, -1))];
  if (a.length > 1) out.push(copy(a).reverse());
  out.push([copy(a[0]), ...copy(a)]);
  // The first element varied as a value of its own: code that reads a field of each item (`stock`
  // of each line of an order) sees other values than the suite's, not only other lengths.
  for (const item of variants(a[0], values).slice(0, ELEMENT_VARIANTS)) out.push([item, ...copy(a.slice(1))]);
  // The last one too: a lookup keyed on a later item (`[3, 7]` answered only when the second is 7) or
  // a bound on the last item is not met by varying the first alone.
  if (a.length > 1) {
    const last = a[a.length - 1];
    for (const item of variants(last, values).slice(0, LAST_ELEMENT_VARIANTS)) out.push([...copy(a.slice(0, -1)), item]);
  }
  return out;
}

/** @param {Record<string, unknown>} o */
function objectVariants(o) {
  const keys = Object.keys(o).slice(0, OBJECT_KEYS);
  /** @type {Record<string, unknown>[]} */
  const out = [{}];
  for (const key of keys) {
    const without = copy(o);
    delete without[key];
    out.push(without);
  }
  for (const key of keys.filter((k) => typeof o[k] === 'boolean')) out.push({ ...copy(o), [key]: !o[key] });
  for (const key of keys.filter((k) => o[k] !== null)) out.push({ ...copy(o), [key]: null });
  // A number one either way and zero: a field compared with a bound (`stock <= 0` against `stock < 1`).
  for (const key of keys.filter((k) => typeof o[k] === 'number' && Number.isFinite(o[k]))) {
    for (const n of [/** @type {number} */ (o[key]) + 1, /** @type {number} */ (o[key]) - 1, 0])
      if (n !== o[key]) out.push({ ...copy(o), [key]: n });
  }
  return out;
}

/**
 * The lists' items taken in turn, the first of each, then the second of each: a caller that keeps
 * only the first few keeps some of every list.
 * @template T
 * @param {T[][]} lists
 * @returns {T[]}
 */
function interleave(lists) {
  /** @type {T[]} */
  const out = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let round = 0; round < longest; round++)
    for (const list of lists) if (round < list.length) out.push(/** @type {T} */ (list[round]));
  return out;
}

/**
 * The values near one value, the value itself left out; those made from the change's values taken in
 * turn with the others, so a caller that keeps the first few keeps some of each.
 * @param {unknown} value
 * @param {ChangeValues | null} [values]
 * @returns {unknown[]}
 */
function variants(value, values = null) {
  const type = typeof value;
  /** @type {unknown[]} */
  let out = [];
  if (type === 'string') out = stringVariants(/** @type {string} */ (value));
  else if (type === 'number') out = numberVariants(/** @type {number} */ (value));
  else if (type === 'bigint') out = bigintVariants(/** @type {bigint} */ (value));
  else if (type === 'boolean') out = [!value];
  else if (isDate(value)) out = dateVariants(value);
  else if (Array.isArray(value)) out = arrayVariants(value, values);
  else if (isPlainObject(value)) out = objectVariants(value);
  out = interleave([fromChange(value, values).slice(0, FROM_CHANGE), out]);
  return out.filter(
    (candidate) =>
      !Object.is(candidate, value) &&
      !(typeof candidate === 'number' && typeof value === 'number' && Number.isNaN(candidate) && Number.isNaN(value)),
  );
}

/**
 * Argument lists near `args`: the last argument dropped; null or undefined where the suite passed one
 * at that position in some call (`nullable`: position → the values seen); then one argument changed at
 * a time, taking from each position in turn so that every argument gets its share when the caller
 * keeps only the first few. The arguments at `held` positions (not plain data: probe-held.cjs) are
 * never varied nor copied here: each list keeps the very value, which the caller copies per call.
 * @param {unknown[]} args
 * @param {Map<number, unknown[]>} nullable
 * @param {ChangeValues | null} [values] What the patches' changed lines name (change-values.ts).
 * @param {ReadonlySet<number>} [held]
 * @param {boolean} [bounded] No huge or infinite number: a call that holds copies is a method or an
 *   internal function (a parser's state beside its nesting level), where a huge level only asks
 *   for memory (`' '.repeat(indent * level)`), and running out of it ends the process.
 * @returns {unknown[][]}
 */
function neighbours(args, nullable, values = null, held = new Set(), bounded = false) {
  const copyArgs = (/** @type {unknown[]} */ list) => list.map((arg, index) => (held.has(index) ? arg : copy(arg)));
  /** @type {unknown[][]} */
  const out = [];
  if (args.length > 0) out.push(copyArgs(args.slice(0, -1)));
  args.forEach((arg, index) => {
    for (const empty of nullable.get(index) || []) {
      if (arg === empty) continue;
      const next = copyArgs(args);
      next[index] = empty;
      out.push(next);
    }
  });
  const perArg = args.map((arg, index) =>
    (held.has(index) ? [] : variants(arg, values)).map((value) => {
      const next = copyArgs(args);
      next[index] = value;
      return next;
    }),
  );
  out.push(...interleave(perArg));
  return bounded ? out.filter((list) => list.every((arg, index) => held.has(index) || modest(arg, 0))) : out;
}

/** The largest number a bounded call is given (a count, a level, an offset). */
const MODEST = 1e6;

/**
 * Whether plain data holds no number beyond ±MODEST, nor an infinite one.
 * @param {unknown} value
 * @param {number} nesting
 * @returns {boolean}
 */
function modest(value, nesting) {
  if (typeof value === 'number') return Number.isNaN(value) || Math.abs(value) <= MODEST;
  if (typeof value === 'bigint') return value <= BigInt(MODEST) && value >= -BigInt(MODEST);
  if (typeof value !== 'object' || value === null || nesting > 3) return true;
  return Object.values(value).every((item) => modest(item, nesting + 1));
}

module.exports = { allPlainData, copy, interleave, isPlainData, modest, neighbours, variants };
