'use strict';
// Inputs for a call with nothing plain to vary (docs/design.md §3.3): a method called with no
// argument, or with objects of classes only (`command.helpInformation()`, `encode(header)`), works on
// what its receiver and those objects hold. The probe varies their own fields instead, one field at a
// time, on the copies each generated call gets (probe-held.cjs): a field that holds plain data takes
// the values a plain argument would (probe-inputs.cjs), so the method is seen on other states than
// the suite's. A varied field is named in the input's text as `this.<field>=<value>` (an object
// argument's as `arg<n>.<field>=<value>`), which argument-slots.ts reads as a slot of its own. Part of
// the inlined probe runtime.
const { canon } = require('./probe-canon.cjs');
const { isPlainData } = require('./probe-plain.cjs');
const { interleave, modest, variants } = require('./probe-inputs.cjs');

/** @typedef {import('./probe-change-inputs.cjs').ChangeValues} ChangeValues */

/** The fields varied on one object, and the values each takes: the first few of each, in turn. */
const FIELDS = 8;
const PER_FIELD = 4;
/** A field named as an identifier: its slot in the input's text stays one name. */
const FIELD_NAME = /^[A-Za-z_]\w*$/;

/**
 * One field of a held object set to another value.
 * @typedef {object} FieldChange
 * @property {'this' | number} holder the receiver, or the argument's position
 * @property {string} field
 * @property {unknown} value
 * @property {string} label the change as the input's text shows it
 */

/**
 * The field changes around a call: the receiver's fields, then each held argument's, taken in turn.
 * @param {{ thisArg: unknown, heldThis: boolean, snapshot: unknown[] | null, held: ReadonlySet<number> }} base
 * @param {ChangeValues | null} values what the patches' changed lines name (change-values.ts)
 * @returns {FieldChange[]}
 */
function fieldChanges(base, values) {
  /** @type {FieldChange[][]} */
  const lists = [];
  if (base.heldThis) lists.push(changesOf('this', base.thisArg, values));
  for (const index of base.held) lists.push(changesOf(index, base.snapshot && base.snapshot[index], values));
  return interleave(lists);
}

/**
 * @param {'this' | number} holder
 * @param {unknown} object
 * @param {ChangeValues | null} values
 * @returns {FieldChange[]}
 */
function changesOf(holder, object, values) {
  if (typeof object !== 'object' || object === null) return [];
  const name = holder === 'this' ? 'this' : `arg${holder + 1}`;
  /** @type {FieldChange[][]} */
  const perField = [];
  for (const field of Object.keys(object)) {
    if (perField.length >= FIELDS) break;
    const descriptor = Object.getOwnPropertyDescriptor(object, field);
    if (!FIELD_NAME.test(field) || !descriptor || !('value' in descriptor) || !descriptor.writable) continue;
    if (!isPlainData(descriptor.value, 0)) continue;
    const near = variants(descriptor.value, values)
      .filter((value) => modest(value, 0))
      .slice(0, PER_FIELD);
    perField.push(near.map((value) => ({ holder, field, value, label: `${name}.${field}=${canon(value)}` })));
  }
  return interleave(perField);
}

/**
 * Sets the change on a generated call's own copies; false when the object refuses it (frozen, a
 * setter that throws).
 * @param {FieldChange} change
 * @param {unknown} thisArg
 * @param {unknown[]} args
 * @returns {boolean}
 */
function applyChange(change, thisArg, args) {
  const holder = /** @type {Record<string, unknown>} */ (change.holder === 'this' ? thisArg : args[change.holder]);
  try {
    holder[change.field] = change.value;
    return Object.is(holder[change.field], change.value);
  } catch {
    return false;
  }
}

/**
 * A generated input's text: its arguments', and after them the field it set otherwise (its label).
 * @param {string} text
 * @param {string | undefined} label
 * @returns {string}
 */
function withChange(text, label) {
  return label ? (text ? `${text}, ${label}` : label) : text;
}

module.exports = { applyChange, fieldChanges, withChange };
