'use strict';
// Who did it: the first frame of the stack (innermost first) in a file of the repository that is not a
// test, a runner's configuration or setup file, or a dependency. A file is configuration or setup by
// its name only where the judge gave no list (runs that are not judged, and the pristine baseline);
// in a judged run only the files it lists are (those at the baseline the patch did not change): a
// file the patch added under such a name is the code's like any other. Read from V8's structured call sites with this
// module's own copies of `Error.captureStackTrace` and of a `prepareStackTrace`, so code that sets
// `Error.stackTraceLimit = 0` or its own `Error.prepareStackTrace` does not hide itself. Code that
// locks them (a frozen or replaced `Error`, a getter that cannot be redefined) is read through node's
// own `util.getCallSites` (node 22.9 and later, taken at load), which no `Error` setting changes;
// where node has none, the stack cannot be read: its caller is unknown, never nobody.
const { relative, isAbsolute, sep } = require('node:path');
const { fileURLToPath } = require('node:url');
const { createSourceMaps } = require('./guard-source-maps.cjs');
const { TEST_NAME, CODE, RUNNER_CONFIG, SETUP } = require('./guard-names.cjs');

/** @typedef {import('./guard-record.cjs').Where} Where */

const captureStackTrace = Error.captureStackTrace;
/** @type {((frames?: number) => Array<{ scriptName: string, lineNumber: number, columnNumber?: number, column?: number }>) | undefined} */
const getCallSites = /** @type {Record<string, never>} */ (/** @type {unknown} */ (require('node:util'))).getCallSites;
const defineProperty = Object.defineProperty;
/** V8 reads the stack's length from the context's own `Error`, whatever `globalThis.Error` becomes. */
const IntrinsicError = Error;
/** Node's machinery that reads files on its own: its module loaders, source maps and test runner. */
const NODE_READERS = /^node:internal\/(modules|source_map|test_runner)\//;
/** @type {(error: Error, sites: NodeJS.CallSite[]) => NodeJS.CallSite[]} */
const structured = (_, sites) => sites;
/** This file, and the guard's own files: frames of its wrappers are nobody's. */
const SELF = /** @type {NodeJS.Module} */ (/** @type {unknown} */ (module)).filename;
const OWN = require('node:path').dirname(SELF);

/**
 * The call sites of the current stack, innermost first, whatever the code did to `Error`.
 * @returns {NodeJS.CallSite[] | null}
 */
function sites(depth = 64) {
  // Node asks the `Error` of the global at the time for its `prepareStackTrace`.
  const current = globalThis.Error;
  /** @type {{ stack?: unknown }} */
  const holder = {};
  /** @type {(() => void)[]} */
  const restore = [];
  /**
   * @param {object} target
   * @param {string} key
   * @param {unknown} value
   */
  const set = (target, key, value) => {
    const old = Reflect.getOwnPropertyDescriptor(target, key);
    defineProperty(target, key, { value, writable: true, configurable: true });
    restore.push(() => (old ? defineProperty(target, key, old) : Reflect.deleteProperty(target, key)));
  };
  try {
    set(IntrinsicError, 'stackTraceLimit', depth);
    set(current, 'prepareStackTrace', structured);
    captureStackTrace(holder, sites);
    const stack = holder.stack;
    // Never empty where it was read: the guard's own caller is on it.
    return Array.isArray(stack) && stack.length > 0 ? stack : null;
  } catch {
    // `Error` locked by the code: node's own reading of the stack, where it has one (22.9 and later),
    // which no `Error` setting changes; else the caller is unknown, which the record says.
    return nodeSites(depth);
  } finally {
    for (const undo of restore.reverse()) {
      try {
        undo();
      } catch {
        // as above
      }
    }
  }
}

/**
 * The stack as node's `util.getCallSites` reads it (taken at load, before any code could replace it),
 * as call sites; null where this node has none.
 * @returns {NodeJS.CallSite[] | null}
 */
function nodeSites(depth = 64) {
  if (typeof getCallSites !== 'function') return null;
  try {
    // Its first site is this function's caller, `sites`: dropped, as captureStackTrace drops it.
    const found = getCallSites(Math.min(depth + 2, 200)).slice(2);
    return found.length > 0 ? found.map(asCallSite) : null;
  } catch {
    return null;
  }
}

/**
 * @param {{ scriptName: string, lineNumber: number, columnNumber?: number, column?: number }} site
 * @returns {NodeJS.CallSite}
 */
function asCallSite(site) {
  const column = site.columnNumber ?? site.column ?? null;
  return /** @type {NodeJS.CallSite} */ (
    /** @type {unknown} */ ({
      getFileName: () => site.scriptName || null,
      getScriptNameOrSourceURL: () => site.scriptName || null,
      getLineNumber: () => site.lineNumber,
      getColumnNumber: () => column,
    })
  );
}

/** @typedef {ReturnType<typeof createCaller>} Caller */

/**
 * @param {string} root the repository
 * @param {string[]} [listedTests] the test files the judge listed, relative to `root`
 * @param {string[] | null} [exempt] the configuration and setup files the judge listed, relative to
 *   `root`; null or absent: every file so named
 */
function createCaller(root, listedTests, exempt) {
  const tests = new Set(listedTests || []);
  const listed = exempt ? new Set(exempt) : null;
  /** @param {string} rel */
  const allowed = (rel) => listed === null || listed.has(rel);
  /** @param {string} rel */
  const isConfig = (rel) => RUNNER_CONFIG.test(rel) && allowed(rel);
  const sourceMaps = createSourceMaps();
  /**
   * The path relative to the repository, or null outside it or in its dependencies.
   * @param {unknown} name a path or a file URL
   * @returns {string | null}
   */
  const inRepository = (name) => {
    if (typeof name !== 'string' || name === '') return null;
    let path = name;
    if (path.startsWith('file://')) {
      try {
        path = fileURLToPath(path.replace(/[?#].*$/, ''));
      } catch {
        return null;
      }
    }
    if (!isAbsolute(path) || !path.startsWith(root)) return null;
    const rel = relative(root, path).split(sep).join('/');
    if (rel === '' || rel.startsWith('../') || rel === '..' || isAbsolute(rel) || rel.includes('node_modules/')) return null;
    return rel;
  };
  /** @param {string} rel */
  const isTest = (rel) => tests.has(rel) || (CODE.test(rel) && (TEST_NAME.test(rel) || (SETUP.test(rel) && allowed(rel))));

  /**
   * The repository frame that did it: { file, line } for code that is not a test, null when the call
   * comes from a test, the runner or node itself; `unknown` when the stack cannot be read or holds no
   * file at all (a builtin called straight from a timer: `setTimeout(process.exit)`, a promise's
   * `.then(fs.readFileSync)`). Where node's own machinery does the same (its module loaders read files),
   * `strict` is false and a stack with no file is nobody's where that machinery is on it; a stack that
   * cannot be read is unknown either way (node's machinery never locks `Error`).
   * @returns {Where | null}
   */
  const caller = (strict = true) => {
    const stack = sites();
    if (!stack) return { file: null, line: null, unknown: true };
    let anyFile = false;
    for (const site of stack) {
      const name = site.getFileName() || site.getScriptNameOrSourceURL?.();
      if (name && !String(name).startsWith('node:') && !String(name).startsWith(OWN)) anyFile = true;
      const rel = inRepository(name);
      if (rel === null || isConfig(rel)) continue;
      if (isTest(rel)) continue;
      // A file of the repository: `name` is its path or URL.
      const file = /** @type {string} */ (name);
      return { file: rel, line: sourceMaps.originalLine(file, site.getLineNumber(), site.getColumnNumber()) };
    }
    if (anyFile) return null;
    const nodes = !strict && stack.some((site) => NODE_READERS.test(String(site.getFileName() || '')));
    return nodes ? null : { file: null, line: null, unknown: true };
  };

  /**
   * Whether the function that called the guard's wrapper was called straight from a dependency (a file
   * under node_modules): a module runner's own `vm.runInThisContext` (vite-node, which vitest 0.x to 3
   * evaluate every module with) runs inside the import of whichever repository module imported the
   * next, and that module is the innermost repository frame without having run any string.
   */
  const fromDependency = () => {
    const stack = sites(8);
    for (const site of stack || []) {
      const name = site.getFileName() || site.getScriptNameOrSourceURL?.();
      if (!name || String(name).startsWith('node:') || String(name).startsWith(OWN)) continue;
      return String(name).includes('/node_modules/');
    }
    return false;
  };

  return {
    caller,
    ...directCalls(inRepository, (rel) => isConfig(rel) || isTest(rel), sourceMaps),
    inRepository,
    isTest,
    fromLoader,
    fromDependency,
  };
}

/** Whether node's module loaders called the function that called this (they read every module's file). */
function fromLoader() {
  // This function, the read's check, the wrapper of the `fs` function, and who called it.
  const stack = sites(4);
  const name = stack && stack[3] ? stack[3].getFileName() : null;
  return typeof name === 'string' && name.startsWith('node:internal/modules/');
}

/**
 * Who made a call a watcher of the guard saw: for what the call itself says (the environment read
 * by name, a listing of it), not the stack's innermost repository frame.
 * @param {(name: unknown) => string | null} inRepository
 * @param {(rel: string) => boolean} isTestSide a test, a runner's configuration or setup file
 * @param {ReturnType<typeof createSourceMaps>} sourceMaps
 */
function directCalls(inRepository, isTestSide, sourceMaps) {
  /**
   * The first frame with a file after the watcher's own (`watcher`, a guard file's path): who made the
   * call the watcher saw itself. Frames with no file (`Object.keys`, `JSON.stringify`) are passed over.
   * `undefined` when the stack cannot be read, null when it holds no file.
   * @param {string} watcher
   * @returns {{ name: string, site: NodeJS.CallSite } | null | undefined}
   */
  const maker = (watcher) => {
    const stack = sites(16);
    if (!stack) return undefined;
    for (const site of stack) {
      const name = site.getFileName() || site.getScriptNameOrSourceURL?.();
      if (name && name !== watcher && name !== SELF) return { name: String(name), site };
    }
    return null;
  };

  /**
   * The repository file (not a test) that made the call `watcher` saw itself (maker above). Null where
   * it is node's own code (a child started with the inherited environment), a dependency's, a test's,
   * or another of the guard's files (the guard's own use of what it watches; they sit in the gate's
   * folder outside the checkout, so none is the repository's). A stack that cannot be read is unknown.
   * @param {string} watcher
   * @returns {Where | null}
   */
  const direct = (watcher) => {
    const made = maker(watcher);
    if (made === undefined) return { file: null, line: null, unknown: true };
    const rel = made && inRepository(made.name);
    if (!made || !rel || isTestSide(rel)) return null;
    return { file: rel, line: sourceMaps.originalLine(made.name, made.site.getLineNumber(), made.site.getColumnNumber()) };
  };

  /**
   * Whether the call `watcher` saw was made by the runner's side: node's own code, a dependency or the
   * guard, none of them the repository's (not its code, nor its tests).
   * @param {string} watcher
   */
  const byMachinery = (watcher) => {
    const made = maker(watcher);
    return !!made && inRepository(made.name) === null;
  };

  /** Whether any frame on the stack is the repository's (its code's or its tests'): false where the stack cannot be read. */
  const fromRepository = () =>
    (sites() || []).some((site) => inRepository(site.getFileName() || site.getScriptNameOrSourceURL?.()) !== null);
  return { direct, byMachinery, fromRepository };
}

module.exports = { createCaller };
