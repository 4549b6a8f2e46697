'use strict';
// The look from outside the runner (docs/design.md §3.3, src/assess/outside-look.ts), in JavaScript:
// a plain `node` process, with no test runner loaded, no runner variable and no test file on its
// command line, imports the repository's files as they are (not instrumented) and calls their
// functions with the arguments the suite's calls had, read back from exact JSON (outside-revive.cjs's
// `revive`).
// What each call returned or threw is written as the probe writes it (probe-canon.cjs), one JSON
// line per call as soon as it is over, so a call that never returns costs only itself.
//
//   node outside-call.cjs <calls.json> <results.jsonl>
//
// calls.json: [{ "path": "src/a.js", "name": "isAbsolute", "args": "[\"a\"]" }, …], paths relative
// to the working directory. A method called on an instance has `this`, the instance's own fields as
// JSON: the call is made on an object of the class named before the method's name (`Parser` for
// `Parser.parse`) that has those fields, made without its constructor, as the suite's object was
// when the call began, or by the constructor call that made it (`{"$fixloop":"new"}`). An object
// of a class among the values (a receiver's `Rate`) is made of the class of that name in the called
// function's module, with its fields. A line is `{ "i": 0, "out": { "returned": "true" } }`, or
// `{ "i": 0, "missing": "…" }` when the function could not be found or loaded.
const { appendFileSync, readFileSync } = require('node:fs');
const { resolve } = require('node:path');
const { pathToFileURL } = require('node:url');
const { canon, thrownText } = require('./probe-canon.cjs');
const { Born, programValuesOf, revive, withFields } = require('./outside-revive.cjs');
const { topLevelBinding } = require('./outside-internal.cjs');
const { resolveAsRunnersDo } = require('./outside-loader.cjs');

/** An async call that has not settled by then is written as not settled. */
const SETTLE_MS = 5000;

/**
 * The function a module holds under `name`: a named export, a property of its default export (a
 * CommonJS `module.exports = { … }`), or the default export itself when it has that name; a dotted
 * name (`picomatch.matchBase`, a static method) is looked up property by property from there, and
 * the object holding the function is its receiver.
 * @param {Record<string, unknown>} namespace
 * @param {string} name
 * @returns {{ fn: Function, receiver: unknown } | null}
 */
function exported(namespace, name) {
  const [first = '', ...rest] = name.split('.');
  const main = namespace.default;
  /** @type {unknown} */
  let value;
  /** @type {unknown} */
  let receiver;
  if (typeof namespace[first] === 'function' && first !== 'default') value = namespace[first];
  else if ((typeof main === 'object' || typeof main === 'function') && main !== null && first in main)
    [value, receiver] = [/** @type {Record<string, unknown>} */ (main)[first], main];
  else if (typeof main === 'function' && (first === 'default' || main.name === first)) value = main;
  return alongPath(value, receiver, rest);
}

/**
 * The function reached from `value` by the property names `keys`, with the object that holds it (its
 * receiver; `receiver` when there are no keys); null when a step finds no object or the end no function.
 * @param {unknown} value
 * @param {unknown} receiver
 * @param {string[]} keys
 * @returns {{ fn: Function, receiver: unknown } | null}
 */
function alongPath(value, receiver, keys) {
  for (const key of keys) {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return null;
    [receiver, value] = [value, /** @type {Record<string, unknown>} */ (value)[key]];
  }
  return typeof value === 'function' ? { fn: value, receiver } : null;
}

/**
 * The function at `name` in the module: among its exports, else among the bindings it keeps to
 * itself (outside-internal.cjs: the patch may change a helper no export is).
 * @param {{ namespace: Record<string, unknown>, path: string }} module
 * @param {string} name
 * @returns {Promise<{ fn: Function, receiver: unknown } | null>}
 */
async function lookUp(module, name) {
  const [first = '', ...rest] = name.split('.');
  return exported(module.namespace, name) ?? alongPath(await topLevelBinding(resolve(module.path), first), undefined, rest);
}

/**
 * The method `name` (`Parser.parse`) on an object of its class with these fields, or null when the
 * module has no such class or its prototype no such method. The fields are defined as the instance
 * had them, so a setter of the class does not run. A receiver written as the constructor call that
 * made it (probe-born.cjs) is made by that call, and one written as an object of a subclass
 * (probe-replay.cjs's `instanceText`) is made of the class its name finds, which must extend it.
 * @param {{ namespace: Record<string, unknown>, path: string }} module
 * @param {string} name
 * @param {string} fields
 * @param {(name: string) => Function | undefined} named The classes and functions the fields name (programValuesOf).
 * @returns {Promise<{ fn: Function, receiver: unknown } | null>}
 */
async function onInstance(module, name, fields, named) {
  const cut = name.lastIndexOf('.');
  const found = cut > 0 ? await lookUp(module, name.slice(0, cut)) : null;
  const prototype = found ? /** @type {{ prototype?: unknown }} */ (found.fn).prototype : null;
  if (typeof prototype !== 'object' || prototype === null || !found) return null;
  const given = /** @type {Record<string, unknown>} */ (revive(fields, named));
  const method = name.slice(cut + 1);
  // An object of a subclass, made of the class its name found: the method of the class it extends
  // is called on it (the suite called that one, whatever the subclass overrides). A subclass the
  // module keeps to itself comes from the module's copy (outside-internal.cjs), and extends the
  // copy's class of that name. One of a class that extends none of that name is no receiver.
  if (!(given instanceof Born) && Object.getPrototypeOf(given) !== Object.prototype) {
    const fn = methodOfAncestor(given, name.slice(0, cut).split('.').pop() ?? '', method);
    return fn ? { fn, receiver: given } : null;
  }
  /** @type {Record<string, unknown>} */
  let receiver;
  if (given instanceof Born) receiver = Reflect.construct(found.fn, given.args);
  else receiver = withFields(Object.create(prototype), given, (value) => value);
  const fn = receiver[method];
  return typeof fn === 'function' ? { fn, receiver } : null;
}

/**
 * The method `method` as the class named `className` above the object defines it, or null.
 * @param {object} object
 * @param {string} className
 * @param {string} method
 * @returns {Function | null}
 */
function methodOfAncestor(object, className, method) {
  for (let proto = Object.getPrototypeOf(object); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const constructor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value;
    if (typeof constructor !== 'function' || constructor.name !== className) continue;
    const fn = Object.getOwnPropertyDescriptor(proto, method)?.value;
    return typeof fn === 'function' ? fn : null;
  }
  return null;
}

/**
 * @param {PromiseLike<unknown>} promise
 * @returns {Promise<{ returned: unknown } | { threw: unknown } | null>}
 */
function settled(promise) {
  return new Promise((done) => {
    const timer = setTimeout(() => done(null), SETTLE_MS);
    Promise.resolve(promise).then(
      (value) => (clearTimeout(timer), done({ returned: value })),
      (error) => (clearTimeout(timer), done({ threw: error })),
    );
  });
}

/** @typedef {{ path: string, name: string, args: string, this?: string }} Call */

/**
 * @param {Call} call
 * @param {Map<string, Promise<Record<string, unknown>>>} modules
 * @returns {Promise<Record<string, unknown>>}
 */
async function outcome(call, modules) {
  let loading = modules.get(call.path);
  if (!loading) {
    loading = import(pathToFileURL(resolve(call.path)).href);
    modules.set(call.path, loading);
  }
  let namespace;
  try {
    namespace = await loading;
  } catch (error) {
    return { missing: `${call.path} does not load in plain node: ${thrownText(error)}` };
  }
  const module = { namespace, path: call.path };
  const texts = call.this === undefined ? [call.args] : [call.args, call.this];
  const named = await programValuesOf(texts, async (name) => (await lookUp(module, name))?.fn);
  /** @type {{ fn: Function, receiver: unknown } | null} */
  let found;
  /** @type {unknown[]} */
  let args;
  try {
    found = call.this === undefined ? await lookUp(module, call.name) : await onInstance(module, call.name, call.this, named);
    args = /** @type {unknown[]} */ (revive(call.args, named));
  } catch (error) {
    return { missing: `the values of ${call.name}'s call could not be given back: ${thrownText(error)}` };
  }
  if (!found)
    return {
      missing: `${call.path} has no ${call.this === undefined ? 'function' : 'class with a method'} named ${call.name}`,
    };
  /** @type {{ returned: unknown } | { threw: unknown } | null} */
  let result;
  try {
    const value = found.fn.apply(found.receiver, args);
    const thenable = value !== null && (typeof value === 'object' || typeof value === 'function');
    result =
      thenable && typeof (/** @type {{ then?: unknown }} */ (value).then) === 'function'
        ? await settled(value)
        : { returned: value };
  } catch (error) {
    result = { threw: error };
  }
  if (result === null) return { missing: `not settled within ${SETTLE_MS} ms` };
  return { out: 'threw' in result ? { threw: thrownText(result.threw) } : { returned: canon(result.returned) } };
}

async function main() {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error('usage: node outside-call.cjs <calls.json> <results.jsonl>');
  /** @type {Call[]} */
  const calls = JSON.parse(readFileSync(input, 'utf8'));
  resolveAsRunnersDo();
  /** @type {Map<string, Promise<Record<string, unknown>>>} */
  const modules = new Map();
  for (const [i, call] of calls.entries())
    appendFileSync(output, `${JSON.stringify({ i, ...(await outcome(call, modules)) })}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
