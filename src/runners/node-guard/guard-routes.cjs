'use strict';
// The routes below `fs` and beside it, taken straight from a repository file that is not a test:
// - `process.binding` (node's internal bindings, `fs` among them: an open there passes no wrapper of
//   guard-reads.cjs). Node deprecates it and honest code does not call it (`internal_binding`);
// - a module-loader hook, which node hands every module's source, the tests' too: `module.register`
//   (ESM hooks), an assignment to `require.extensions` / `Module._extensions`, or to a module's
//   `_compile` (`loader_hook`).
// A dependency's own call (the first file on the stack under node_modules: ts-node, @babel/register,
// a mocking library) is not the code's: what the patch adds through a dependency it does not control.
// Only the first frame decides that; the event names the innermost repository frame as every event does.
const Module = require('node:module');

/** @typedef {import('./guard-record.cjs').GuardRecord} GuardRecord */
/** @typedef {import('./guard-caller.cjs').Caller} Caller */
/** @typedef {(this: unknown, ...args: unknown[]) => unknown} AnyFunction */

/**
 * @param {GuardRecord} record
 * @param {Pick<Caller, 'caller' | 'fromDependency'>} who
 */
function guardRoutes(record, { caller, fromDependency }) {
  /**
   * @param {string} kind
   * @param {string} detail
   */
  const note = (kind, detail) => {
    if (fromDependency()) return;
    const where = caller();
    if (where) record.event(kind, where, detail);
  };
  const functions = /** @type {Record<string, AnyFunction>} */ (/** @type {unknown} */ (process));
  const binding = functions.binding;
  if (typeof binding === 'function')
    functions.binding = function (name, ...rest) {
      note('internal_binding', `process.binding(${JSON.stringify(String(name))})`);
      return binding.call(this, name, ...rest);
    };
  const loader = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (Module));
  for (const name of ['register', 'registerHooks']) {
    const own = loader[name];
    if (typeof own !== 'function') continue;
    loader[name] = function (/** @type {unknown[]} */ ...args) {
      note('loader_hook', `module.${name}(${typeof args[0] === 'string' ? JSON.stringify(args[0].slice(0, 80)) : ''})`);
      return /** @type {AnyFunction} */ (own).apply(this, args);
    };
  }
  watchExtensions(loader, note);
  watchCompile(note);
}

/**
 * `require.extensions` is `Module._extensions` (every `require` made after this load gets it): a
 * proxy that notes what is set on it, read by node's loader as the object itself.
 * @param {Record<string, unknown>} loader
 * @param {(kind: string, detail: string) => void} note
 */
function watchExtensions(loader, note) {
  const extensions = loader._extensions;
  if (!extensions || typeof extensions !== 'object') return;
  /** @param {string | symbol} key */
  const noted = (key) => note('loader_hook', `require.extensions[${JSON.stringify(String(key))}] set`);
  loader._extensions = new Proxy(extensions, {
    set(target, key, value) {
      noted(key);
      return Reflect.set(target, key, value);
    },
    defineProperty(target, key, descriptor) {
      noted(key);
      return Reflect.defineProperty(target, key, descriptor);
    },
  });
}

/**
 * `Module.prototype._compile` is handed each module's source: replacing it, on the prototype or on a
 * module, is a loader hook. An accessor on the prototype sees both; a module's own value is kept on
 * that module, as an assignment would have made it.
 * @param {(kind: string, detail: string) => void} note
 */
function watchCompile(note) {
  const prototype = Module.prototype;
  const descriptor = Object.getOwnPropertyDescriptor(prototype, '_compile');
  if (!descriptor || !descriptor.configurable || typeof descriptor.value !== 'function') return;
  let compile = descriptor.value;
  Object.defineProperty(prototype, '_compile', {
    configurable: true,
    enumerable: descriptor.enumerable,
    get: () => compile,
    set(value) {
      note('loader_hook', this === prototype ? 'Module.prototype._compile replaced' : "a module's _compile replaced");
      if (this === prototype) compile = value;
      else Object.defineProperty(this, '_compile', { value, writable: true, configurable: true, enumerable: true });
    },
  });
}

module.exports = { guardRoutes };
