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
const { fileURLToPath } = require('node:url');
const { watchEvaluations } = require('./guard-vm-evaluations.cjs');

const UNPLACED = { file: null, line: null, unknown: true };

/** @typedef {import('./guard-vm-evaluations.cjs').ScriptOptions} ScriptOptions */

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
  watchEvaluations(seen);
}

module.exports = { guardModuleData };
