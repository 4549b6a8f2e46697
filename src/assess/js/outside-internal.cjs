'use strict';
// A function a module keeps to itself (declared at its top level, not exported), for the look from
// outside the runner (outside-call.cjs): the patch may change a helper that no export is. The module
// is loaded a second time, apart from the program's own copy, with that one binding handed out: an
// ES module through the load hook (`export { helper as __fixloopInternal }` appended to its source,
// after its compiler ran), a CommonJS one compiled again with a last line that hands it out. Its code
// is otherwise the same; only the caller can reach the binding.
const { readFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { pathToFileURL } = require('node:url');

/** The query that asks the load hook for the binding, and the name it is handed out under. */
const QUERY = 'fixloop-internal';
const HANDED_OUT = '__fixloopInternal';
/** A binding's name as the appended line may spell it: nothing but an identifier reaches the source. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * For the load hook: an ES module's source with the binding the URL asks for exported, or null when it
 * asks for none (the program's own load) or the module is not an ES module.
 * @param {string} url
 * @param {string} format
 * @param {string} source
 * @returns {string | null}
 */
function withBindingExported(url, format, source) {
  const name = new URL(url).searchParams.get(QUERY);
  if (!name || !IDENTIFIER.test(name) || !format.startsWith('module')) return null;
  return `${source}\nexport { ${name} as ${HANDED_OUT} };\n`;
}

/**
 * A CommonJS file compiled again, apart from the program's copy, with its top-level binding `name`
 * handed out; undefined when it has none or does not compile.
 * @param {string} filename
 * @param {string} name
 * @returns {unknown}
 */
function commonJsBinding(filename, name) {
  const Module = /** @type {any} */ (require('node:module'));
  try {
    const copy = new Module(filename, null);
    copy.filename = filename;
    copy.paths = Module._nodeModulePaths(dirname(filename));
    const handOut = `\n;module.exports = { ${HANDED_OUT}: typeof ${name} === 'undefined' ? undefined : ${name} };\n`;
    copy._compile(readFileSync(filename, 'utf8') + handOut, filename);
    return copy.exports[HANDED_OUT];
  } catch {
    return undefined;
  }
}

/** Each module's bindings, loaded once: the calls of one helper share its module's state, as the program's calls do. */
/** @type {Map<string, Promise<unknown>>} */
const bindings = new Map();

/**
 * A top-level binding of the module: exported by the load hook from a second copy of an ES module,
 * else from a CommonJS one compiled again; undefined when it has none.
 * @param {string} filename
 * @param {string} name
 * @returns {Promise<unknown>}
 */
async function loadBinding(filename, name) {
  try {
    const url = `${pathToFileURL(filename).href}?${QUERY}=${name}`;
    const namespace = /** @type {Record<string, unknown>} */ (await import(url));
    if (namespace[HANDED_OUT] !== undefined) return namespace[HANDED_OUT];
  } catch {
    // Not an ES module that has the binding: perhaps a CommonJS one.
  }
  return /\.[mc]?ts$/.test(filename) ? undefined : commonJsBinding(filename, name);
}

/**
 * The module's top-level binding `name` (`helper`, or `table` for `table.lookup`), loaded once per
 * module and name; undefined when it has none.
 * @param {string} filename The module's absolute path.
 * @param {string} name
 * @returns {Promise<unknown>}
 */
function topLevelBinding(filename, name) {
  if (!IDENTIFIER.test(name)) return Promise.resolve(undefined);
  const key = `${filename}\0${name}`;
  let loading = bindings.get(key);
  if (!loading) {
    loading = loadBinding(filename, name);
    bindings.set(key, loading);
  }
  return loading;
}

module.exports = { topLevelBinding, withBindingExported };
