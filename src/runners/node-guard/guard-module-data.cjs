'use strict';
// A test file handed to the program as data by a bundler's module runner: vite's query imports
// (`import text from '../test/a.test.js?raw'`, `import.meta.glob('…', { query: '?raw' })`, `?url`,
// `?inline`). vite reads the file in vitest's main process, for whichever module asked, and the test
// process evaluates a module of its own that exports the text. vitest 4 and later name that module by
// the file's path and the query; vitest 3 (vite-node) by the file's path alone, so there it shows as
// the test file evaluated a second time with another text. The runner never runs a test that way:
// either is the tests' text handed to code. The module runner's stack at that point does not name the
// importer (it imports asynchronously), so the read is placed nowhere: it counts against the run,
// never as nobody's. A suite that does it itself on the pristine code (a test importing another's
// text) has the same event at the baseline, which the judge does not count.
const vm = require('node:vm');
const { fileURLToPath } = require('node:url');

const UNPLACED = { file: null, line: null, unknown: true };

/** @typedef {string | { filename?: unknown } | undefined} ScriptOptions what `vm` is given as a script's options */

/**
 * @param {import('./guard-record.cjs').GuardRecord} record
 * @param {{ inRepository: (name: unknown) => string | null, isTest: (rel: string) => boolean }} who
 */
function guardModuleData(record, { inRepository, isTest }) {
  /** @type {Map<string, unknown>} each test file's first text evaluated under its name */
  const firstText = new Map();
  /**
   * @param {unknown} text
   * @param {ScriptOptions} options
   */
  const seen = (text, options) => {
    const filename = typeof options === 'string' ? options : options && options.filename;
    if (typeof filename !== 'string') return;
    const at = filename.indexOf('?');
    const named = at < 0 ? filename : filename.slice(0, at);
    let path;
    try {
      path = named.startsWith('file:') ? fileURLToPath(named) : named;
    } catch {
      return; // not a file's URL: no file of the repository
    }
    const rel = inRepository(path);
    if (!rel || !isTest(rel)) return;
    const how = at >= 0 ? `imported ${rel} as data (${filename.slice(at)})` : again(rel, filename, text);
    if (how) record.event('test_file_read', UNPLACED, `${how}: could not tell which module imported it`);
  };
  /**
   * @param {string} rel
   * @param {string} filename
   * @param {unknown} text
   * @returns {string | null}
   */
  const again = (rel, filename, text) => {
    if (!firstText.has(filename)) {
      firstText.set(filename, text);
      return null;
    }
    return firstText.get(filename) === text ? null : `evaluated ${rel} again as another module (its text as data)`;
  };
  const runInThisContext = vm.runInThisContext;
  vm.runInThisContext = function (text, options) {
    seen(text, options);
    return runInThisContext.call(this, text, options);
  };
  const compileFunction = vm.compileFunction;
  vm.compileFunction = function (code, params, options) {
    seen(code, options);
    return compileFunction.call(this, code, params, options);
  };
  const Script = vm.Script;
  vm.Script = class extends Script {
    /**
     * @param {string} text
     * @param {import('node:vm').ScriptOptions | string} [options]
     */
    constructor(text, options) {
      super(text, options);
      seen(text, options);
    }
  };
}

module.exports = { guardModuleData };
