'use strict';
// The code each `vm.Script` of the repository ran, by the path it was given, until a test's record
// carries it: jest runs the sources transformed (babel), each through `vm.Script` under its own path,
// and vitest's module runner (vite-node, then vitest's own evaluator) runs what it transformed through
// `vm.runInThisContext`. fixloop reads the coverage's offsets against that code, and maps them back
// through its inline source map.
const vm = require('node:vm');
const { pathToFileURL } = require('node:url');

/** @typedef {string | { filename?: string } | undefined} ScriptOptions what `vm` is given as a script's options */

/**
 * Starts keeping the code of the repository's scripts; the map fills as they are compiled.
 * @param {(url: string) => boolean} ours
 * @returns {Map<string, string>} the code by path and by file URL
 */
function keepScriptCode(ours) {
  /** @type {Map<string, string>} */
  const scriptCode = new Map();
  /**
   * @param {unknown} code
   * @param {ScriptOptions} options
   */
  const remember = (code, options) => {
    const filename = typeof options === 'string' ? options : options && options.filename;
    if (typeof filename === 'string' && ours(filename)) {
      // V8 names the script by the path, or by its file URL: keep it under both.
      scriptCode.set(filename, String(code));
      if (!filename.startsWith('file:')) scriptCode.set(pathToFileURL(filename).href, String(code));
    }
  };
  const Script = vm.Script;
  vm.Script = class extends Script {
    /**
     * @param {string} code
     * @param {import('node:vm').ScriptOptions | string} [options]
     */
    constructor(code, options) {
      super(code, options);
      remember(code, options);
    }
  };
  // vitest's module runner (vite-node, then vitest's own evaluator) runs what it transformed here.
  const runInThisContext = vm.runInThisContext;
  /**
   * @param {string} code
   * @param {import('node:vm').RunningScriptOptions | string} [options]
   */
  vm.runInThisContext = function (code, options) {
    remember(code, options);
    return runInThisContext.call(this, code, options);
  };
  return scriptCode;
}

module.exports = { keepScriptCode };
