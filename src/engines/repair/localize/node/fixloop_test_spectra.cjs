'use strict';
// Per-test V8 block coverage of a mocha or `node --test` suite in ONE run (for Ochiai), preloaded
// with `NODE_OPTIONS=--require <this file>`. V8's precise coverage hands out the counts since the
// last time it was taken and resets them, so what is taken when a test ends, having been taken when
// it started, is what that test (and its beforeEach hooks) executed. One run instead of one process
// per test: a suite of hundreds of tests costs about one suite run, and module-load lines, executed
// before any test, are no test's own.
//
// Where a test starts and ends:
// - mocha's runner is an EventEmitter that emits 'test' before a test's beforeEach hooks and
//   'test end' after the test (and before its afterEach hooks);
// - node's runner, in the process that runs a test file, pushes `test:dequeue` right before a test
//   runs and `test:complete` right after, as objects into its reporter's Readable stream (the parent
//   process that spawned it sees neither, and loads none of the repository's code).
//
// Writes one JSON file per test into FIXLOOP_SPECTRA_OUT: { title, state, scripts: [{ url, ranges }] },
// with only the scripts under FIXLOOP_SPECTRA_ROOT outside node_modules. Node's standard library only.
const inspector = require('node:inspector');
const { EventEmitter } = require('node:events');
const { Readable } = require('node:stream');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const out = process.env.FIXLOOP_SPECTRA_OUT;
const root = process.env.FIXLOOP_SPECTRA_ROOT;

/** An inspector session in this thread, or null where there is none (node's test runner's parent process). */
function connectedSession() {
  try {
    const session = new inspector.Session();
    session.connect();
    return session;
  } catch {
    return null;
  }
}

const session = out && root ? connectedSession() : null;
if (session) {
  const rootUrl = pathToFileURL(root).href + '/';
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

  let written = 0;
  /** Takes the coverage since the last take; when a test ended, writes it as that test's. */
  const take = (ended) => {
    const taken = post('Profiler.takePreciseCoverage');
    if (!ended || !taken) return;
    const scripts = taken.result
      .filter((s) => s.url.startsWith(rootUrl) && !s.url.includes('/node_modules/'))
      .map((s) => ({ url: s.url, ranges: s.functions.flatMap((f) => f.ranges) }));
    try {
      writeFileSync(join(out, `${process.pid}-${written++}.json`), JSON.stringify({ title: ended.title, state: ended.state, scripts }));
    } catch {
      // A folder that cannot be written costs the spectra, never the test run.
    }
  };

  const isMochaTest = (value) => value !== null && typeof value === 'object' && value.type === 'test' && typeof value.fullTitle === 'function';
  const emit = EventEmitter.prototype.emit;
  EventEmitter.prototype.emit = function (event, ...args) {
    if ((event === 'test' || event === 'test end') && isMochaTest(args[0])) {
      const test = args[0];
      const state = test.state === 'failed' ? 'failed' : test.state === 'passed' ? 'passed' : 'skipped';
      take(event === 'test end' ? { title: test.fullTitle(), state } : null);
    }
    return emit.call(this, event, ...args);
  };

  // node's runner: the names of the suites the current test is nested in, by nesting level, so a
  // test's title is the one its report gives ("suite > test").
  const names = [];
  const push = Readable.prototype.push;
  Readable.prototype.push = function (chunk, ...rest) {
    if (chunk !== null && typeof chunk === 'object' && (chunk.type === 'test:dequeue' || chunk.type === 'test:complete') && chunk.data) {
      const { name, nesting, details, skip, todo } = chunk.data;
      if (chunk.type === 'test:dequeue') {
        names.length = nesting;
        names[nesting] = name;
        take(null);
      } else if (details && details.type !== 'suite') {
        const state = skip || todo ? 'skipped' : details.passed ? 'passed' : 'failed';
        take({ title: [...names.slice(0, nesting), name].join(' > '), state });
      }
    }
    return push.call(this, chunk, ...rest);
  };
}
