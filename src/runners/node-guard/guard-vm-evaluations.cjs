'use strict';
// The scripts node's `vm` is handed under a file's name: jest and vitest run the code they
// transformed so (`vm.Script`, `vm.runInThisContext`, `vm.compileFunction`). Each is wrapped once,
// and every watcher of the guard that asks is told of each script (guard-source-maps.cjs keeps its
// code for the lines; guard-module-data.cjs looks for a test file handed over as data). A script
// `vm.Script` could not compile is told of to none.

const vm = require('node:vm');

/** @typedef {string | { filename?: unknown } | undefined} ScriptOptions what `vm` is given as a script's options */
/** @typedef {'script' | 'run' | 'function'} Route `vm.Script`, `vm.runInThisContext`, `vm.compileFunction` */
/** @typedef {(text: unknown, options: ScriptOptions, route: Route) => void} Watcher */

/** @type {Watcher[]} */
const watchers = [];

/** @type {Watcher} */
const tell = (text, options, route) => {
  for (const watcher of watchers) watcher(text, options, route);
};

/**
 * Tells `watcher` of each script from now on, whatever watcher asked first.
 * @param {Watcher} watcher
 */
function watchEvaluations(watcher) {
  watchers.push(watcher);
  if (watchers.length === 1) wrapVm();
}

function wrapVm() {
  const Script = vm.Script;
  vm.Script = class extends Script {
    /**
     * @param {string} text
     * @param {import('node:vm').ScriptOptions | string} [options]
     */
    constructor(text, options) {
      super(text, options);
      tell(text, options, 'script');
    }
  };
  const runInThisContext = vm.runInThisContext;
  /**
   * @param {string} text
   * @param {import('node:vm').RunningScriptOptions | string} [options]
   */
  vm.runInThisContext = function (text, options) {
    tell(text, options, 'run');
    return runInThisContext.call(this, text, options);
  };
  const compileFunction = vm.compileFunction;
  /**
   * @param {string} code
   * @param {readonly string[]} [params]
   * @param {import('node:vm').CompileFunctionOptions} [options]
   */
  vm.compileFunction = function (code, params, options) {
    tell(code, options, 'function');
    return compileFunction.call(this, code, params, options);
  };
}

module.exports = { watchEvaluations };
