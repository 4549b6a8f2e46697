'use strict';
// Per-test V8 block coverage of a mocha suite in ONE run (for Ochiai), preloaded with
// `NODE_OPTIONS=--require <this file>`. Mocha's runner is an EventEmitter that emits 'test' before a
// test's beforeEach hooks and 'test end' after the test (and before its afterEach hooks); V8's precise
// coverage hands out the counts since the last time it was taken and resets them. So what is taken at
// 'test end' is what that test (and its beforeEach hooks) executed. One run instead of one process
// per test: a suite of hundreds of tests costs about one suite run, and module-load lines, executed
// before any test, are no test's own.
//
// Writes one JSON file per test into FIXLOOP_SPECTRA_OUT: { title, state, scripts: [{ url, ranges }] },
// with only the scripts under FIXLOOP_SPECTRA_ROOT outside node_modules. Node's standard library only.
const inspector = require('node:inspector');
const { EventEmitter } = require('node:events');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const out = process.env.FIXLOOP_SPECTRA_OUT;
const root = process.env.FIXLOOP_SPECTRA_ROOT;

if (out && root) {
  const rootUrl = pathToFileURL(root).href + '/';
  const session = new inspector.Session();
  session.connect();
  // The in-thread session answers synchronously: each call's result is there when post returns.
  const post = (method, params) => {
    let result = null;
    session.post(method, params, (error, value) => {
      if (!error) result = value;
    });
    return result;
  };
  post('Profiler.enable');
  post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

  const isMochaTest = (value) => value !== null && typeof value === 'object' && value.type === 'test' && typeof value.fullTitle === 'function';
  let written = 0;
  const emit = EventEmitter.prototype.emit;
  EventEmitter.prototype.emit = function (event, ...args) {
    if ((event === 'test' || event === 'test end') && isMochaTest(args[0])) {
      const taken = post('Profiler.takePreciseCoverage');
      if (event === 'test end' && taken) {
        const scripts = taken.result
          .filter((s) => s.url.startsWith(rootUrl) && !s.url.includes('/node_modules/'))
          .map((s) => ({ url: s.url, ranges: s.functions.flatMap((f) => f.ranges) }));
        const test = args[0];
        const state = test.state === 'failed' ? 'failed' : test.state === 'passed' ? 'passed' : 'skipped';
        try {
          writeFileSync(join(out, `${process.pid}-${written++}.json`), JSON.stringify({ title: test.fullTitle(), state, scripts }));
        } catch {
          // A folder that cannot be written costs the spectra, never the test run.
        }
      }
    }
    return emit.call(this, event, ...args);
  };
}
