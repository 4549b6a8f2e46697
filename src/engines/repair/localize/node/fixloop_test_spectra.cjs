'use strict';
// Per-test V8 block coverage of a mocha, jest, vitest or `node --test` suite in ONE run (for Ochiai), preloaded
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
//   process that spawned it sees neither, and loads none of the repository's code);
// - vitest's runner sets its worker state's `current` task to a test before the test's beforeEach
//   hooks and back to its suite once the test's result is set (vite-node or vitest's own evaluator
//   runs the transformed code through `vm.runInThisContext`, kept like jest's, with its inline map);
// - jest's circus runner hands every event to its test environment's `handleTestEvent`: 'test_start'
//   and 'test_done'. Jest runs the sources transformed (babel), each through `vm.Script` under its
//   own path: the code it ran is kept, once per process, with the first test that ran it, so that
//   the offsets can be read against it and mapped through its inline source map.
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
const inspector = require('node:inspector');
const { EventEmitter } = require('node:events');
const { Readable } = require('node:stream');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { threadId } = require('node:worker_threads');
const vm = require('node:vm');
const Module = require('node:module');

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
const spawnedBy = process.env.FIXLOOP_SPECTRA_TEST;
const rootUrl = root ? pathToFileURL(root).href + '/' : '';
const ours = (url) => (url.startsWith(rootUrl) || url.startsWith(root + '/')) && !url.includes('/node_modules/');
// The in-thread session answers synchronously: each call's result is there when post returns.
const post = (method, params) => {
  let result = null;
  session.post(method, params, (error, value) => {
    if (!error) result = value;
  });
  return result;
};

if (session && spawnedBy && /^\d+(t\d+)?-\d+$/.test(spawnedBy)) {
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
} else if (session) {
  // The code each `vm.Script` of the repository ran, by the path it was given, until a test's
  // record carries it.
  const scriptCode = new Map();
  const sent = new Set();
  const remember = (code, options) => {
    const filename = typeof options === 'string' ? options : options && options.filename;
    if (typeof filename === 'string' && ours(filename)) {
      // V8 names the script by the path, or by its file URL: keep it under both.
      scriptCode.set(filename, String(code));
      if (!filename.startsWith('file:')) scriptCode.set(pathToFileURL(filename).href, String(code));
    }
  };
  const Script = vm.Script;
  vm.Script = class extends Script {
    constructor(code, options) {
      super(code, options);
      remember(code, options);
    }
  };
  // vitest's module runner (vite-node, then vitest's own evaluator) runs what it transformed here.
  const runInThisContext = vm.runInThisContext;
  vm.runInThisContext = function (code, options) {
    remember(code, options);
    return runInThisContext.call(this, code, options);
  };
  Module.syncBuiltinESMExports();
  // Counting starts at the first test's start, not when the process starts: the processes a test
  // spawns (a CLI under test, a compiler) inherit this hook through NODE_OPTIONS, and precise
  // coverage would slow them (enough to fail commander's ts-node test on its 5 s timeout). Functions
  // compile lazily, at their first call, so what the tests call is still counted block by block.
  let counting = false;

  let written = 0;
  // Tests of one process may run in several threads (vitest's threads pool), each with this hook.
  const runner = threadId ? `${process.pid}t${threadId}` : String(process.pid);
  /** Takes the coverage since the last take; when a test ended, writes it as that test's. */
  const take = (ended) => {
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

  const isMochaTest = (value) =>
    value !== null && typeof value === 'object' && value.type === 'test' && typeof value.fullTitle === 'function';
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
    if (
      chunk !== null &&
      typeof chunk === 'object' &&
      (chunk.type === 'test:dequeue' || chunk.type === 'test:complete') &&
      chunk.data
    ) {
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

  // vitest: its runner keeps the task it is running in its worker state, the object it defines on
  // globalThis as `__vitest_worker__`: `current` is a test from before its beforeEach hooks until its
  // result is set, then that test's suite again. Each state it defines gets `current` watched.
  const defineProperty = Object.defineProperty;
  const watched = new WeakSet();
  const stateOf = (task) => {
    const state = task.result && task.result.state;
    return state === 'fail' ? 'failed' : state === 'pass' ? 'passed' : 'skipped';
  };
  /** "file > suite > test", as vitest's report names it: the file task's name is its relative path. */
  const vitestTitle = (task) => {
    const titles = [];
    let top = task;
    for (let t = task; t; t = t.suite) {
      if (t.name) titles.unshift(t.name);
      top = t;
    }
    // A suite's chain may stop below its file (vitest 3): the file's name leads all the same.
    if (task.file && top !== task.file) titles.unshift(task.file.name);
    return titles.join(' > ');
  };
  const watchCurrentTask = (workerState) => {
    if (watched.has(workerState)) return;
    watched.add(workerState);
    let current = workerState.current;
    let running = null;
    defineProperty(workerState, 'current', {
      configurable: true,
      enumerable: true,
      get: () => current,
      set: (task) => {
        if (running && task !== running) {
          take({ title: vitestTitle(running), state: stateOf(running) });
          running = null;
        }
        if (task && task.type === 'test' && task !== running) {
          running = task;
          take(null);
        }
        current = task;
      },
    });
  };
  Object.defineProperty = function (target, key, descriptor) {
    if (
      target === globalThis &&
      key === '__vitest_worker__' &&
      descriptor &&
      descriptor.value !== null &&
      typeof descriptor.value === 'object'
    )
      watchCurrentTask(descriptor.value);
    return defineProperty.call(this, target, key, descriptor);
  };

  // jest: its environments are loaded by node's own require (the tests run inside them).
  const hooked = new WeakSet();
  const hookEnvironment = (Environment) => {
    if (typeof Environment !== 'function' || hooked.has(Environment)) return;
    hooked.add(Environment);
    const own = Environment.prototype.handleTestEvent;
    Environment.prototype.handleTestEvent = function (event, state) {
      if (event && event.test && (event.name === 'test_start' || event.name === 'test_done')) {
        if (event.name === 'test_start') take(null);
        else {
          const titles = [];
          for (let block = event.test.parent; block && block.parent; block = block.parent) titles.unshift(block.name);
          take({
            title: [...titles, event.test.name].join(' > '),
            state: event.test.errors && event.test.errors.length > 0 ? 'failed' : 'passed',
          });
        }
      }
      return own ? own.call(this, event, state) : undefined;
    };
  };
  const load = Module._load;
  Module._load = function (request, ...rest) {
    const loaded = load.call(this, request, ...rest);
    if (typeof request === 'string' && /jest-environment-(node|jsdom)/.test(request) && loaded) {
      hookEnvironment(loaded.TestEnvironment);
      hookEnvironment(loaded.default);
    }
    return loaded;
  };
}
