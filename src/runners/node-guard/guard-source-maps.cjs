'use strict';
// Lines as the repository's file has them. jest and vitest run the code they transformed (through
// `vm.Script` and `vm.runInThisContext`, under the file's own path); the call sites give the
// transformed code's lines. jest's code carries its source map inline: the line is mapped through it.
// vitest 4 and later keep their maps in the main process: the transformed line is found in the file
// by its text, without vite's import bindings (`__vite_ssr_import_0__.`), nearest to where it ran.
// Both are done only when a frame of that file is reported.
const { watchEvaluations } = require('./guard-vm-evaluations.cjs');
const { SourceMap } = require('node:module');
const { readFileSync } = require('node:fs');

const INLINE = /^\/\/[#@] sourceMappingURL=data:application\/json(?:;charset=[\w-]+)?;base64,([A-Za-z0-9+/=]+)/;

/** @typedef {import('./guard-vm-evaluations.cjs').ScriptOptions} ScriptOptions */

function createSourceMaps() {
  /** @type {Map<string, string>} */
  const code = new Map();
  /** @type {Map<string, InstanceType<typeof SourceMap> | null>} */
  const maps = new Map();
  /**
   * @param {unknown} text
   * @param {ScriptOptions} options
   */
  const remember = (text, options) => {
    const filename = typeof options === 'string' ? options : options && options.filename;
    if (typeof filename === 'string' && typeof text === 'string') {
      code.set(filename, text);
      maps.delete(filename);
    }
  };
  // The scripts jest and vitest run (a function compiled alone is no module of theirs).
  watchEvaluations((text, options, route) => {
    if (route !== 'function') remember(text, options);
  });

  /**
   * The original line of `line`:`column` (1-based) of `filename`, or `line` where there is no map.
   * @param {string} filename
   * @param {number | null} line
   * @param {number | null} column
   * @returns {number | null}
   */
  const originalLine = (filename, line, column) => {
    if (!maps.has(filename)) {
      const text = code.get(filename);
      const at = text ? text.lastIndexOf('sourceMappingURL=data:application/json') : -1;
      const found = at >= 0 ? INLINE.exec(/** @type {string} */ (text).slice(at - 4)) : null;
      let map;
      try {
        map = found ? new SourceMap(JSON.parse(Buffer.from(found[1], 'base64').toString('utf8'))) : null;
      } catch {
        map = null; // a map that cannot be read: the transformed line is the best there is
      }
      maps.set(filename, map);
    }
    const map = maps.get(filename);
    // An entry, or `{}` where the map has none.
    const entry = /** @type {{ originalLine?: number } | null} */ (
      map && typeof line === 'number' ? map.findEntry(line - 1, Math.max(0, (column || 1) - 1)) : null
    );
    if (entry && typeof entry.originalLine === 'number') return entry.originalLine + 1;
    const transformed = code.get(filename);
    return transformed !== undefined && typeof line === 'number' ? alignedLine(filename, transformed, line) : line;
  };
  return { originalLine };
}

/** @param {string} text */
const bare = (text) =>
  text
    .replace(/__vite_ssr_import_\d+__\./g, '')
    .replace(/\(0,\s*/g, '(')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The line of the file on disk with the text of the transformed code's `line`, nearest to it.
 * @param {string} filename
 * @param {string} transformed
 * @param {number} line
 * @returns {number}
 */
function alignedLine(filename, transformed, line) {
  const wanted = bare(transformed.split('\n')[line - 1] || '');
  let original;
  try {
    original = readFileSync(filename, 'utf8').split('\n');
  } catch {
    return line;
  }
  /** @type {number | null} */
  let best = null;
  original.forEach((text, index) => {
    const own = bare(text);
    if (own.length < 4 || !(wanted.includes(own) || own.includes(wanted))) return;
    if (best === null || Math.abs(index + 1 - line) < Math.abs(best - line)) best = index + 1;
  });
  return best ?? line;
}

module.exports = { createSourceMaps };
