'use strict';
// The assertion library and node's test runner cannot be changed: every export of `node:assert`,
// `node:assert/strict` and `node:test` becomes an accessor that cannot be redefined, whose setter
// records the writer and keeps the export (a frozen object would drop a write in sloppy mode without
// a word). These are the objects every route returns (`require`, `import()` with any specifier,
// `process.getBuiltinModule`, `module.createRequire`), so guarding them in place covers all routes.
// A redefinition (`Object.defineProperty` and kin) throws, and is recorded too. Code run from a file
// that is not code (`require('./patch.txt')`) or from a string through `vm` is recorded as such.
// (`vm` called straight from a dependency is that dependency's: a module runner evaluating modules.)
const Module = require('node:module');
const vm = require('node:vm');
const workerThreads = require('node:worker_threads');
const { extname } = require('node:path');
const { watchDefinitions } = require('./guard-define-watch.cjs');

const CODE_EXTENSIONS = new Set(['.js', '.cjs', '.mjs', '.jsx', '.ts', '.cts', '.mts', '.tsx', '.json', '.node', '']);

/** @typedef {import('./guard-record.cjs').GuardRecord} GuardRecord */
/** @typedef {import('./guard-caller.cjs').Caller} Caller */
/** @typedef {(this: unknown, ...args: unknown[]) => unknown} AnyFunction */
/**
 * Node's CommonJS loader, as far as the guard wraps it (internal methods, in no public type).
 * @typedef {{ _load: (this: unknown, request: unknown, ...rest: unknown[]) => unknown }} Loader
 * @typedef {{ _compile: (this: unknown, content: unknown, filename: unknown, ...rest: unknown[]) => unknown }} Compiler
 */

/**
 * @param {GuardRecord} record
 * @param {Caller['caller']} caller
 * @param {Caller['fromDependency']} fromDependency
 */
function guardExports(record, caller, fromDependency) {
  /** @type {WeakMap<object, string>} */
  const guarded = new WeakMap();
  /**
   * @param {object} target
   * @param {unknown} key
   * @param {string} how
   */
  const changed = (target, key, how) => {
    const who = caller();
    if (who) record.event('framework_changed', who, `${guarded.get(target)}.${String(key)} ${how}`);
  };
  /**
   * @param {string} name
   * @param {unknown} target
   */
  const guard = (name, target) => {
    if ((typeof target !== 'object' && typeof target !== 'function') || target === null || guarded.has(target)) return;
    guarded.set(target, name);
    for (const key of Reflect.ownKeys(target)) {
      const descriptor = Object.getOwnPropertyDescriptor(target, key);
      if (!descriptor || !descriptor.configurable) continue; // a function's own `prototype`: not an export
      const get = descriptor.get || (() => descriptor.value);
      Object.defineProperty(target, key, {
        configurable: false,
        enumerable: descriptor.enumerable,
        get,
        set() {
          changed(target, key, 'written');
        },
      });
    }
  };
  guard('assert', require('node:assert'));
  guard('assert/strict', require('node:assert/strict'));
  // node:test costs tens of milliseconds to load: it is guarded at once where it is the runner (the
  // processes `node --test` starts, and itself with --test-isolation=none), elsewhere when it is
  // first required or asked of process.getBuiltinModule (an ESM import of it there is not seen).
  const nodeTest = () => guard('test', require('node:test'));
  if (process.env.NODE_TEST_CONTEXT || process.execArgv.includes('--test')) nodeTest();
  else {
    const loader = /** @type {Loader} */ (/** @type {unknown} */ (Module));
    const load = loader._load;
    loader._load = function (request, ...rest) {
      const loaded = load.call(this, request, ...rest);
      if (request === 'node:test' || request === 'test') nodeTest();
      return loaded;
    };
    const getBuiltinModule = process.getBuiltinModule;
    if (typeof getBuiltinModule === 'function') {
      process.getBuiltinModule = function (/** @type {string} */ id) {
        if (id === 'node:test' || id === 'test') nodeTest();
        return getBuiltinModule.call(this, id);
      };
    }
  }

  // A redefinition of a guarded export throws (it cannot be configured); who tried is recorded.
  // A primitive is never guarded: a WeakMap's `has` answers false for it.
  watchDefinitions(Object, Reflect, (target, key) => {
    if (guarded.has(/** @type {object} */ (target))) changed(/** @type {object} */ (target), key, 'redefined');
  });
  for (const owner of [Object, Reflect]) {
    const setPrototypeOf = owner.setPrototypeOf;
    owner.setPrototypeOf = /** @type {typeof Object.setPrototypeOf} */ (
      function (target, prototype) {
        if (guarded.has(target)) changed(target, '[[Prototype]]', 'redefined');
        return setPrototypeOf.call(this, target, prototype);
      }
    );
  }
  watchDynamicCode(record, caller, fromDependency);
}

/**
 * Code run from a file that is not code, or from a string through `vm` or a worker thread.
 * @param {GuardRecord} record
 * @param {Caller['caller']} caller
 * @param {Caller['fromDependency']} fromDependency
 */
function watchDynamicCode(record, caller, fromDependency) {
  // CommonJS runs a file of any other extension as JavaScript.
  const prototype = /** @type {Compiler} */ (/** @type {unknown} */ (Module.prototype));
  const compile = prototype._compile;
  prototype._compile = function (content, filename, ...rest) {
    if (typeof filename === 'string' && !CODE_EXTENSIONS.has(extname(filename).toLowerCase())) {
      const who = caller();
      if (who) record.event('dynamic_code', who, `require of a file that is not code: ${filename.split('/').pop()}`);
    }
    return compile.call(this, content, filename, ...rest);
  };
  const vmFunctions = /** @type {Record<string, AnyFunction>} */ (/** @type {unknown} */ (vm));
  for (const name of ['runInThisContext', 'runInNewContext', 'runInContext', 'compileFunction']) {
    const own = vmFunctions[name];
    vmFunctions[name] = function (...args) {
      const who = fromDependency() ? null : caller(false);
      if (who) record.event('dynamic_code', who, `vm.${name} of a string`);
      return own.apply(this, args);
    };
  }
  // A worker whose code is a string (`eval: true`, a `data:` URL) runs code no file holds: its frames
  // name no repository file, so what it reads is placed nowhere. Its start is placed instead.
  const Worker = workerThreads.Worker;
  workerThreads.Worker = class extends Worker {
    /**
     * @param {string | URL} file
     * @param {import('node:worker_threads').WorkerOptions} [options]
     */
    constructor(file, options) {
      if ((options && options.eval === true) || /^data:/i.test(String(file))) {
        const who = fromDependency() ? null : caller(false);
        if (who) record.event('dynamic_code', who, 'a worker thread started from a string');
      }
      super(file, options);
    }
  };
}

module.exports = { guardExports };
