'use strict';
// Per-test V8 block coverage of a mocha, jest, vitest or `node --test` suite in ONE run (for Ochiai), preloaded
// with `NODE_OPTIONS=--require <this file>`. V8's precise coverage hands out the counts since the
// last time it was taken and resets them, so what is taken when a test ends, having been taken when
// it started, is what that test (and its beforeEach hooks) executed. One run instead of one process
// per test: a suite of hundreds of tests costs about one suite run, and module-load lines, executed
// before any test, are no test's own.
//
// Its parts: where each runner's tests start and end (spectra-tests.cjs, through the module the
// runtime guard follows the runners' tests with, runners/node-guard/test-events/; node's runner
// reports them in the process that runs a test file, its parent process loads none of the
// repository's code), the coverage taken then (spectra-coverage.cjs), and the code jest and vitest ran
// transformed (spectra-scripts.cjs), kept, once per process, with the first test that ran it, so that
// the offsets can be read against it and mapped through its inline source map.
//
// Writes one JSON file per test into FIXLOOP_SPECTRA_OUT, `<pid>-<n>.json` (`<pid>t<thread>-<n>.json`
// from a worker thread): { title, state, scripts: [{ url, ranges,
// source? }] }, with only the scripts under FIXLOOP_SPECTRA_ROOT outside node_modules (`url` a file
// URL, or the plain path a `vm.Script` was given). Node's standard library only.
//
// A process a test spawns (a CLI under test) inherits this hook and, through the environment, the
// name of the file its test will be written to (FIXLOOP_SPECTRA_TEST): it writes what it ran, when
// it exits, beside it (`<test>.child-<pid>.json`). V8's best-effort coverage, not the precise one:
// whole functions, not blocks, but at no cost to the child (precise coverage slowed commander's
// ts-node subcommand past its test's 5 s timeout).
const Module = require('node:module');
const { connectedSession, poster, repositoryScripts, writeAtExit, testTaker } = require('./spectra-coverage.cjs');
const { keepScriptCode } = require('./spectra-scripts.cjs');
const { followSpectraTests } = require('./spectra-tests.cjs');

const out = process.env.FIXLOOP_SPECTRA_OUT;
const root = process.env.FIXLOOP_SPECTRA_ROOT;

const session = out && root ? connectedSession() : null;
const spawnedBy = process.env.FIXLOOP_SPECTRA_TEST;

if (session && out && root) {
  const post = poster(session);
  const ours = repositoryScripts(root);
  if (spawnedBy && /^\d+(t\d+)?-\d+$/.test(spawnedBy)) writeAtExit(post, ours, out, spawnedBy);
  else {
    const scriptCode = keepScriptCode(ours);
    // `import { Script } from 'node:vm'` reads the builtins' ESM exports, synced here once.
    Module.syncBuiltinESMExports();
    const take = testTaker(post, ours, out, scriptCode);
    followSpectraTests(take, root);
  }
}
