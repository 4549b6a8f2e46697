'use strict';
// How each object of a probed method's class was made, in the JavaScript probe's runtime
// (probe-birth.ts inserts the calls into the class's constructor): the constructor's arguments as
// exact data, and the object's canonical text once the constructor was over. A method's call on an
// object whose fields cannot be written as exact data (a private field, a function the constructor
// made) is made again outside the runner on an object the same constructor call builds, when the
// object's fields are still as the constructor left them (docs/design.md §3.3). Part of the inlined
// probe runtime.
const { canon } = require('./probe-canon.cjs');
const { heldCopy } = require('./probe-held.cjs');
const { TAG, replayText } = require('./probe-replay.cjs');

/** Objects whose making is kept, at most, per realm: a class made in a hot loop (a token) must not slow the suite. */
const MAX_BIRTHS = 5000;

/**
 * @typedef {object} Birth
 * @property {string} args The constructor's arguments as exact data (probe-replay.cjs).
 * @property {unknown[]} copy A copy of them, taken before the constructor ran (probe-held.cjs).
 * @property {Function} target The class constructed (`new.target`), not a subclass of it.
 * @property {string} text The object's canonical text when its constructor was over.
 */

/**
 * The constructor's arguments as exact data, and a copy of them, taken before it runs (it may change
 * what it was given); undefined when they are not exact data, or MAX_BIRTHS objects were kept.
 * @param {{ births: WeakMap<object, Birth>, birthCount: number }} state
 * @param {ArrayLike<unknown>} argsLike
 * @returns {{ text: string, copy: unknown[] } | undefined}
 */
function bornWith(state, argsLike) {
  if (state.birthCount >= MAX_BIRTHS) return undefined;
  try {
    const args = Array.prototype.slice.call(argsLike);
    const text = replayText(args);
    return text === undefined ? undefined : { text, copy: /** @type {unknown[]} */ (heldCopy(args)) };
  } catch {
    return undefined;
  }
}

/**
 * Keeps how the object was made, when its arguments are exact data and it is of exactly the class
 * whose constructor this is (`name`): a base class's constructor, run by a subclass's `super()`, was
 * given what the subclass chose, not what its caller gave.
 * @param {{ births: WeakMap<object, Birth>, birthCount: number }} state
 * @param {{ text: string, copy: unknown[] } | undefined} args
 * @param {() => unknown} self
 * @param {unknown} target
 * @param {string} name
 */
function born(state, args, self, target, name) {
  try {
    if (args === undefined || typeof target !== 'function' || target.name !== name) return;
    const object = self();
    if (typeof object !== 'object' || object === null) return;
    if (Object.getPrototypeOf(object) !== target.prototype) return;
    state.births.set(object, { args: args.text, copy: args.copy, target, text: canon(object) });
    state.birthCount += 1;
  } catch {
    // A constructor that threw made no object to call a method on.
  }
}

/**
 * How the receiver was made, when by its own class's constructor with exact arguments and its fields
 * are as that left them; else undefined.
 * @param {{ births: WeakMap<object, Birth> }} state
 * @param {unknown} receiver
 * @returns {Birth | undefined}
 */
function unchangedBirth(state, receiver) {
  if (typeof receiver !== 'object' || receiver === null) return undefined;
  const birth = state.births.get(receiver);
  if (!birth || Object.getPrototypeOf(receiver) !== birth.target.prototype) return undefined;
  try {
    return canon(receiver) === birth.text ? birth : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The receiver as a constructor call, `{"$fixloop":"new","args":[…]}`, for the look from outside.
 * @param {{ births: WeakMap<object, Birth> }} state
 * @param {unknown} receiver
 * @returns {string | undefined}
 */
function birthText(state, receiver) {
  const birth = unchangedBirth(state, receiver);
  return birth ? `{"${TAG}":"new","args":${birth.args}}` : undefined;
}

/**
 * What makes another object as the receiver was made, for the calls generated around a method of a
 * class whose objects a copy cannot stand in for (a private field: probe-held.cjs refuses): its
 * constructor run again on a copy of the same arguments; null when the receiver changed since.
 * @param {{ births: WeakMap<object, Birth> }} state
 * @param {unknown} receiver
 * @returns {(() => unknown) | null}
 */
function remaker(state, receiver) {
  const birth = unchangedBirth(state, receiver);
  return birth ? () => Reflect.construct(birth.target, /** @type {unknown[]} */ (heldCopy(birth.copy))) : null;
}

module.exports = { birthText, born, bornWith, remaker };
