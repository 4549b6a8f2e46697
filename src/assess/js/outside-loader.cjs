'use strict';
// How the look from outside the runner's plain process (outside-call.cjs) loads the repository's
// TypeScript: as its runner would, resolving relative imports the runner's way and compiling with the
// project's own compiler, and with a binding a module keeps to itself handed out on a second load
// (outside-internal.cjs). Copied beside outside-call.cjs; never part of the probe runtime.
const { resolve } = require('node:path');
const { pathToFileURL } = require('node:url');
const { withBindingExported } = require('./outside-internal.cjs');

/** What a relative specifier may leave out that a runner's resolver adds (vitest's, ts-node's, a bundler's). */
const LEFT_OUT = ['.ts', '.js', '.mts', '.mjs', '/index.ts', '/index.js'];

/**
 * TypeScript sources import each other the way their runner resolves them: without an extension, or
 * as `./x.js` for `x.ts`. Node strips types itself (22.18 and later) but resolves only the exact
 * name, so a relative specifier it cannot find is tried as those would be. With
 * `module.registerHooks` (Node 22.15 and later) the hooks run in this thread; before it, from Node
 * 20.6, `module.register` runs the same hooks, asynchronously, in a thread of their own
 * (outside-hooks.mjs), so an ES module's own helper is reached on the operator's Node 20 too.
 */
function resolveAsRunnersDo() {
  const { registerHooks, register } = /** @type {{ registerHooks?: Function, register?: Function }} */ (require('node:module'));
  if (typeof registerHooks !== 'function') {
    if (typeof register === 'function') register(pathToFileURL(require.resolve('./outside-hooks.mjs')).href);
    return;
  }
  const compile = projectTranspiler();
  registerHooks({
    /**
     * @param {string} url
     * @param {unknown} context
     * @param {(url: string, context: unknown) => Loaded} next
     */
    load: (url, context, next) => loadedAsRunnersDo(next(url, context), url, compile),
    /**
     * @param {string} specifier
     * @param {unknown} context
     * @param {(specifier: string, context: unknown) => unknown} next
     */
    resolve(specifier, context, next) {
      try {
        return next(specifier, context);
      } catch (error) {
        const candidates = specifiersAsRunnersDo(specifier, error);
        if (candidates.length === 0) throw error;
        for (const candidate of candidates) {
          try {
            return next(candidate, context);
          } catch {
            // Not that one either.
          }
        }
        throw error;
      }
    },
  });
}

/** @typedef {{ format?: string | null, source?: unknown, shortCircuit?: boolean }} Loaded */

/**
 * A module as its runner would load it: TypeScript as the project's own compiler compiles it
 * (projectTranspiler), when it has one, since Node's own stripping keeps an import of a type that
 * does not say `import type`, and fails on it; and on a second load that asks for a binding the
 * module keeps to itself, that binding handed out (outside-internal.cjs).
 * @param {Loaded} loaded
 * @param {string} url
 * @param {((source: string, url: string, format: 'cjs' | 'esm') => string | null) | null} compile
 * @returns {Loaded}
 */
function loadedAsRunnersDo(loaded, url, compile) {
  let format = String(loaded.format || '');
  if (loaded.source === undefined || loaded.source === null) return loaded;
  let source = String(loaded.source);
  const compiled =
    compile && format.endsWith('-typescript') ? compile(source, url, format.startsWith('commonjs') ? 'cjs' : 'esm') : null;
  if (compiled !== null) [source, format] = [compiled, format.replace('-typescript', '')];
  const exported = withBindingExported(url, format, source);
  if (exported !== null) source = exported;
  return compiled === null && exported === null ? loaded : { ...loaded, format, source, shortCircuit: true };
}

/**
 * The specifiers to try for a relative one Node could not find, as a runner's resolver would (none
 * for another specifier or another error).
 * @param {string} specifier
 * @param {unknown} error
 * @returns {string[]}
 */
function specifiersAsRunnersDo(specifier, error) {
  const code = /** @type {{ code?: unknown }} */ (error).code;
  if (!/^\.\.?\//.test(specifier) || (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND')) return [];
  const bare = specifier.replace(/\.js$/, '');
  return LEFT_OUT.map((ending) => bare + ending);
}

/**
 * The project's own TypeScript compiler, as its runner would compile with it: esbuild (vitest's, tsx's)
 * or TypeScript itself (ts-jest's, ts-node's); null when it has neither.
 * @returns {((source: string, url: string, format: 'cjs' | 'esm') => string | null) | null}
 */
function projectTranspiler() {
  const fromProject = require('node:module').createRequire(resolve('package.json'));
  /** @param {string} name */
  const load = (name) => {
    try {
      return /** @type {Record<string, Function>} */ (fromProject(name));
    } catch {
      return null;
    }
  };
  const esbuild = load('esbuild');
  const typescript = esbuild ? null : load('typescript');
  if (!esbuild && !typescript) return null;
  return (source, url, format) => {
    try {
      if (esbuild) return esbuild.transformSync(source, { loader: 'ts', format, sourcefile: url }).code;
      const ts =
        /** @type {Record<string, Function> & { ModuleKind: Record<string, number>, ScriptTarget: Record<string, number> }} */ (
          typescript
        );
      const module = format === 'cjs' ? ts.ModuleKind.CommonJS : ts.ModuleKind.ESNext;
      const compilerOptions = { module, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false, isolatedModules: true };
      return ts.transpileModule(source, { compilerOptions, fileName: url }).outputText;
    } catch {
      return null;
    }
  };
}

module.exports = { resolveAsRunnersDo, loadedAsRunnersDo, specifiersAsRunnersDo, projectTranspiler };
