'use strict';
// What probe-replay.cjs wrote, given back in the plain process of the look from outside the runner
// (outside-call.cjs, docs/design.md §3.3): the values as they were, tagged ones made again, an object
// of one of the program's classes made of the class its name finds where the call is made, and a
// function of the program's as the one its name finds there. Copied beside outside-call.cjs; never
// part of the probe runtime.
const { TAG } = require('./probe-replay.cjs');

/** A receiver to be made by its class's constructor with these arguments (probe-born.cjs's `new`). */
class Born {
  /** @param {unknown[]} args */
  constructor(args) {
    this.args = args;
  }
}

/** @typedef {(name: string) => Function | undefined} Named The program's class or function of a name, for `instance` and `function`. */

/**
 * A tagged value given back.
 * @param {Record<string, unknown>} tagged
 * @param {(value: unknown) => unknown} back
 * @param {Named} named
 * @returns {unknown}
 */
function untagged(tagged, back, named) {
  const value = tagged.value;
  switch (tagged[TAG]) {
    case 'new':
      return new Born(/** @type {unknown[]} */ (back(tagged.args)));
    case 'map':
      return new Map(/** @type {unknown[][]} */ (tagged.items).map(([k, v]) => [back(k), back(v)]));
    case 'set':
      return new Set(/** @type {unknown[]} */ (tagged.items).map(back));
    case 'function': {
      const found = named(String(tagged.name));
      if (typeof found !== 'function') throw new Error(`no function named ${String(tagged.name)}`);
      return found;
    }
    case 'instance': {
      const found = named(String(tagged.class));
      const prototype = /** @type {{ prototype?: unknown } | undefined} */ (found)?.prototype;
      if (typeof prototype !== 'object' || prototype === null) throw new Error(`no class named ${String(tagged.class)}`);
      return withFields(Object.create(prototype), /** @type {Record<string, unknown>} */ (tagged.fields), back);
    }
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
 * The object given the fields, each defined as it was (a setter of its class does not run).
 * @template {object} T
 * @param {T} target
 * @param {Record<string, unknown>} fields
 * @param {(value: unknown) => unknown} back
 * @returns {T}
 */
function withFields(target, fields, back) {
  for (const [key, item] of Object.entries(fields))
    Object.defineProperty(target, key, { value: back(item), writable: true, enumerable: true, configurable: true });
  return target;
}

/**
 * What `replayText` or `fieldsText` wrote, parsed and given back as the values it was written from;
 * an object of a class is made of the class `named` gives for its name, a function is the one it gives
 * (it throws when there is none).
 * @param {string} text
 * @param {Named} [named]
 * @returns {unknown}
 */
function revive(text, named = () => undefined) {
  /** @param {unknown} value @returns {unknown} */
  const back = (value) => {
    if (Array.isArray(value)) return value.map(back);
    if (typeof value !== 'object' || value === null) return value;
    const record = /** @type {Record<string, unknown>} */ (value);
    if (TAG in record) return untagged(record, back, named);
    return withFields({}, record, back);
  };
  return back(JSON.parse(text));
}

/**
 * The names of the classes the text's objects are of and of the functions it holds, for the caller
 * to look them up before `revive`.
 * @param {string} text
 * @returns {Set<string>}
 */
function programNamesIn(text) {
  /** @type {Set<string>} */
  const names = new Set();
  /** @param {unknown} value */
  const walk = (value) => {
    if (typeof value !== 'object' || value === null) return;
    const record = /** @type {Record<string, unknown>} */ (value);
    if (record[TAG] === 'instance') names.add(String(record.class));
    if (record[TAG] === 'function') names.add(String(record.name));
    for (const item of Object.values(record)) walk(item);
  };
  walk(JSON.parse(text));
  return names;
}

/**
 * The classes the texts' objects are of and the functions they hold, each found by its name where the
 * call is made (`find`: the called function's module, its exports, else a binding it keeps to
 * itself), as `revive` asks for them.
 * @param {string[]} texts
 * @param {(name: string) => Promise<Function | undefined>} find
 * @returns {Promise<Named>}
 */
async function programValuesOf(texts, find) {
  /** @type {Map<string, Function>} */
  const found = new Map();
  for (const name of new Set(texts.flatMap((text) => [...programNamesIn(text)]))) {
    const at = await find(name);
    if (at) found.set(name, at);
  }
  return (name) => found.get(name);
}

module.exports = { Born, programNamesIn, programValuesOf, revive, withFields };
