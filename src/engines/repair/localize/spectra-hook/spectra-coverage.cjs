'use strict';
// V8's coverage, taken through an inspector session in this thread, and written as a test's: the
// counts since the last take (precise coverage resets them), so what is taken at a test's end,
// having been taken at its start, is what that test ran. Only scripts of the repository are kept.
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { threadId } = require('node:worker_threads');

/**
 * What the Profiler's coverage methods answer (the other methods' answers are not read).
 * @typedef {{ result: { url: string, functions: { ranges: unknown[] }[] }[] }} Coverage
 */
/** @typedef {(method: string, params?: object) => Coverage | null} Post */
/** @typedef {{ url: string, ranges: unknown[], source?: string }} ScriptCoverage */
/** @typedef {{ title: string, state: 'passed' | 'failed' | 'skipped' }} EndedTest */
/** @typedef {(ended: EndedTest | null) => void} Take a test starts (null) or ends */

/**
 * An inspector session in this thread, or null where there is none (node's test runner's parent process).
 * @returns {import('node:inspector').Session | null}
 */
function connectedSession() {
  try {
    const session = new inspector.Session();
    session.connect();
    return session;
  } catch {
    return null;
  }
}

/**
 * Calls the session. The in-thread session answers synchronously: each call's result is there when
 * post returns.
 * @param {import('node:inspector').Session} session
 * @returns {Post}
 */
function poster(session) {
  return (method, params) => {
    /** @type {Coverage | null} */
    let result = null;
    session.post(method, params, (error, value) => {
      if (!error) result = /** @type {Coverage} */ (value);
    });
    return result;
  };
}

/**
 * Whether a script (by its file URL or path) is the repository's own, outside its dependencies.
 * @param {string} root
 * @returns {(url: string) => boolean}
 */
function repositoryScripts(root) {
  const rootUrl = root ? pathToFileURL(root).href + '/' : '';
  return (url) => (url.startsWith(rootUrl) || url.startsWith(root + '/')) && !url.includes('/node_modules/');
}

/**
 * A process a test spawned: at its exit, what it ran (V8's best-effort coverage, whole functions)
 * beside the file of the test that spawned it.
 * @param {Post} post
 * @param {(url: string) => boolean} ours
 * @param {string} out
 * @param {string} spawnedBy
 */
function writeAtExit(post, ours, out, spawnedBy) {
  process.on('exit', () => {
    const taken = post('Profiler.getBestEffortCoverage');
    if (!taken) return;
    // Plain JavaScript only: a compiler's require hook (ts-node) runs code whose offsets are not the file's.
    const scripts = taken.result
      .filter((s) => ours(s.url) && /\.[cm]?js$/.test(s.url))
      .map((s) => ({ url: s.url, ranges: s.functions.flatMap((f) => f.ranges) }));
    try {
      writeFileSync(join(out, `${spawnedBy}.child-${process.pid}.json`), JSON.stringify({ scripts }));
    } catch {
      // A folder that cannot be written costs the spectra, never the test run.
    }
  });
}

/**
 * The function called where a test starts and ends: takes the coverage since the last take and,
 * when a test ended, writes it as that test's, with the code a `vm.Script` ran (from `scriptCode`)
 * once per script.
 * @param {Post} post
 * @param {(url: string) => boolean} ours
 * @param {string} out
 * @param {Map<string, string>} scriptCode
 * @returns {Take}
 */
function testTaker(post, ours, out, scriptCode) {
  const sent = new Set();
  // Counting starts at the first test's start, not when the process starts: the processes a test
  // spawns (a CLI under test, a compiler) inherit this hook through NODE_OPTIONS, and precise
  // coverage would slow them (enough to fail commander's ts-node test on its 5 s timeout). Functions
  // compile lazily, at their first call, so what the tests call is still counted block by block.
  let counting = false;

  let written = 0;
  // Tests of one process may run in several threads (vitest's threads pool), each with this hook.
  const runner = threadId ? `${process.pid}t${threadId}` : String(process.pid);
  /** Takes the coverage since the last take; when a test ended, writes it as that test's. */
  return (ended) => {
    // What the test about to run spawns writes beside the file this test will be written to.
    if (!ended) process.env.FIXLOOP_SPECTRA_TEST = `${runner}-${written}`;
    else delete process.env.FIXLOOP_SPECTRA_TEST;
    if (!counting) {
      counting = true;
      post('Profiler.enable');
      post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
      return;
    }
    const taken = post('Profiler.takePreciseCoverage');
    if (!ended || !taken) return;
    const scripts = taken.result
      .filter((s) => ours(s.url))
      .map((s) => {
        /** @type {ScriptCoverage} */
        const script = { url: s.url, ranges: s.functions.flatMap((f) => f.ranges) };
        if (scriptCode.has(s.url) && !sent.has(s.url)) {
          sent.add(s.url);
          script.source = scriptCode.get(s.url);
        }
        return script;
      });
    try {
      writeFileSync(
        join(out, `${runner}-${written++}.json`),
        JSON.stringify({ title: ended.title, state: ended.state, scripts }),
      );
    } catch {
      // A folder that cannot be written costs the spectra, never the test run.
    }
  };
}

module.exports = { connectedSession, poster, repositoryScripts, writeAtExit, testTaker };
