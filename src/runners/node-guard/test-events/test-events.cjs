'use strict';
// Where each test of mocha, node's runner, jest (circus) and vitest starts and ends, in the process that
// runs it, read from the runner's own events whatever reporter or quiet flag the project chose: the
// test's identity (its file, its titles outermost first), its final outcome and a failed test's error,
// handed to a listener. Two listeners use it: fixloop's runtime guard (node-guard/guard-runners.cjs)
// records each test, and the repair engine's spectra hook (engines/repair/localize/spectra-hook/)
// takes each test's coverage between its start and its end. Node's standard library only; it runs on
// the repository's own Node.
//
// Each runner's part says which of its events it follows (mocha-events.cjs, node-test-events.cjs,
// jest-events.cjs, vitest-events.cjs); the error each runner holds becomes a message and a stack here.
const Module = require('node:module');
const { fileURLToPath } = require('node:url');
const { followMocha } = require('./mocha-events.cjs');
const { followNodeTest } = require('./node-test-events.cjs');
const { followJest } = require('./jest-events.cjs');
const { followVitest } = require('./vitest-events.cjs');

/** node's own, kept before the guard watches the repository's calls of it (guard-routes.cjs). */
const registerHooks = /** @type {{ registerHooks?: Function }} */ (/** @type {unknown} */ (Module)).registerHooks;

/** @typedef {'passed' | 'failed' | 'skipped'} Outcome */
/** @typedef {'mocha' | 'node-test' | 'jest' | 'vitest'} RunnerName */
/** @typedef {{ message: string, stack?: string }} TestError */
/**
 * A test as its runner reported its end.
 * @typedef {object} EndedTest
 * @property {RunnerName} runner
 * @property {string | null} file the test file as the runner gives it (an absolute path); null when it does not say
 * @property {string[]} titles its suites' titles, the outermost first, and its own last
 * @property {Outcome} outcome
 * @property {TestError | null} error a failed test's error
 * @property {object | null} key the runner's own object for the test: a later end with the same key (a
 *   retry run again, an error reported after the test passed) replaces the earlier one
 * @property {boolean} again a later word on a test that ended already, without it running again
 * @property {boolean} started whether the listener was told the test started (a skipped test may never start)
 */
/**
 * What a listener is told. Besides each test's start and end: that a runner was found in this
 * process or thread (it runs tests), and where jest keeps its matchers (the guard watches them).
 * @typedef {object} Listener
 * @property {(test: EndedTest) => void} ended a test ended
 * @property {() => void} [started] a test starts (before its beforeEach hooks), or a suite of node's runner
 * @property {() => void} [suiteEnded] a suite of node's runner told started has ended (it holds no test of its own)
 * @property {(mocha: { [name: string]: unknown }) => void} [mochaLoaded] mocha's module was loaded
 * @property {(chai: { [name: string]: unknown }) => void} [chaiLoaded] chai was loaded by node's require (mocha's tests: chai 4's CommonJS, or chai 5 and later required as an ES module), or is about to be imported
 * @property {() => void} [jestEnvironment] a jest test environment was loaded
 * @property {(global: { [key: string | symbol]: unknown }) => void} [jestSetup] circus set its tests up in this environment's global
 * @property {(test: { fn?: unknown }, declared: unknown) => void} [jestTestFn] circus is about to call this test's body, its `fn` (each try); `declared`, the function its file declared, when circus told it
 * @property {() => void} [vitestWorker] vitest's worker state was made here
 * @property {(task: { type?: unknown }) => void} [vitestTest] vitest's runner made this test its current task (before its beforeEach hooks)
 * @property {() => void} [vitestFilesRun] vitest's worker has run the files it was given
 * @property {() => void} [nodeTestReported] node's runner reported a test or a suite ending in this process
 */

/** @param {Listener} listener */
function followTests(listener) {
  const mochaLoaded = followMocha(listener);
  const jestLoaded = followJest(listener);
  followNodeTest(listener);
  followVitest(listener);
  // mocha's module, jest's environments and a CommonJS test's chai are loaded by node's own require.
  const loader = /** @type {{ _load: (this: unknown, request: unknown, ...rest: unknown[]) => unknown }} */ (
    /** @type {unknown} */ (Module)
  );
  const load = loader._load;
  loader._load = function (request, ...rest) {
    const loaded = load.call(this, request, ...rest);
    if (loaded) {
      jestLoaded(request, loaded);
      mochaLoaded(loaded);
      if (request === 'chai' && typeof loaded === 'object' && listener.chaiLoaded)
        listener.chaiLoaded(/** @type {{ [name: string]: unknown }} */ (loaded));
    }
    return loaded;
  };
  followChaiImports(listener);
}

/**
 * chai imported (chai 5 and later are ES modules: mocha's ES module tests): node's resolve hook sees
 * the name before any importer runs, and the module is loaded there by `require` (an ES module's
 * namespace, which the import then gets too), so the listener has chai before the code under test
 * can change it. Node 24 and later only: on 22 both the synchronous hooks and `require` of an ES
 * module may print an experimental warning into the tests' output. Before that an imported chai is
 * not seen.
 * @param {Listener} listener
 */
function followChaiImports(listener) {
  const chaiLoaded = listener.chaiLoaded;
  if (!chaiLoaded || typeof registerHooks !== 'function' || Number(process.versions.node.split('.')[0]) < 24) return;
  /** @type {Set<string>} */
  const seen = new Set();
  registerHooks.call(Module, {
    /**
     * @param {string} specifier
     * @param {unknown} context
     * @param {(specifier: string, context: unknown) => { url: string }} next
     */
    resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      if (specifier === 'chai' && resolved.url.startsWith('file:') && !seen.has(resolved.url)) {
        seen.add(resolved.url);
        try {
          const chai = require(fileURLToPath(resolved.url));
          if (chai && typeof chai === 'object') chaiLoaded(chai);
        } catch {
          // A chai that cannot be required here (a top-level await): the import goes on unwatched.
        }
      }
      return resolved;
    },
  });
}

module.exports = { followTests };
