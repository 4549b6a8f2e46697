'use strict';
// What the guard sees of each runner in the process that runs the tests: the tests it ends (counted
// by outcome, the judge checks them against the runner's reports) and, for jest and vitest, the
// matcher table `expect` reads (`expect.extend` writes it): a proxy records every write by code that
// is not a test. mocha's classes are checked by identity at each test's end and at exit.
//
// Where the tests start and end (as the repair engine's spectra hook, localize/node/, reads them):
// - node's runner, in the process that runs a test file: `test:complete` objects pushed into its
//   reporter's Readable stream;
// - mocha: its runner's 'test end' events (an EventEmitter);
// - jest: its circus runner's events, handed to the test environment's `handleTestEvent`;
// - vitest: its worker state's `current` task (a test from its start until its result is set).
const { EventEmitter } = require('node:events');
const { Readable } = require('node:stream');
const Module = require('node:module');

const MATCHERS = Symbol.for('$$jest-matchers-object');

function guardRunners(record, caller) {
  const proxied = new WeakSet();
  /** The matcher table behind `expect`, with every write recorded. */
  const watchMatchers = (holder, runner) => {
    if (!holder || typeof holder.matchers !== 'object' || proxied.has(holder.matchers)) return;
    const note = (key) => {
      const who = caller();
      if (who) record.event('framework_changed', who, `${runner} expect matcher ${String(key)} replaced (expect.extend)`);
    };
    const proxy = new Proxy(holder.matchers, {
      set: (target, key, value) => (note(key), Reflect.set(target, key, value)),
      defineProperty: (target, key, descriptor) => (note(key), Reflect.defineProperty(target, key, descriptor)),
      deleteProperty: (target, key) => (note(key), Reflect.deleteProperty(target, key)),
    });
    proxied.add(proxy);
    holder.matchers = proxy;
  };

  // mocha
  const mochaClasses = [];
  const snapshot = (name, Class) => {
    if (typeof Class !== 'function' || !Class.prototype) return;
    for (const key of Object.getOwnPropertyNames(Class.prototype)) {
      const value = Object.getOwnPropertyDescriptor(Class.prototype, key).value;
      if (typeof value === 'function') mochaClasses.push([`mocha ${name}.prototype.${key}`, Class.prototype, key, value]);
    }
  };
  const checkMocha = () => {
    for (const [name, prototype, key, value] of mochaClasses) {
      if (prototype[key] !== value) record.event('framework_changed', { file: null, line: null }, `${name} replaced`);
    }
  };
  const emit = EventEmitter.prototype.emit;
  EventEmitter.prototype.emit = function (event, test, ...rest) {
    if (
      event === 'test end' &&
      test !== null &&
      typeof test === 'object' &&
      test.type === 'test' &&
      typeof test.fullTitle === 'function'
    ) {
      checkMocha();
      record.testEnded(test.state === 'passed' ? 'passed' : test.state === 'failed' ? 'failed' : 'skipped');
    }
    return emit.call(this, event, test, ...rest);
  };
  process.on('exit', checkMocha);

  // node --test: the process that runs a file (the one that starts them reports them again).
  const orchestrates = process.execArgv.includes('--test') && !process.execArgv.includes('--test-isolation=none');
  const push = Readable.prototype.push;
  Readable.prototype.push = function (chunk, ...rest) {
    if (
      !orchestrates &&
      chunk !== null &&
      typeof chunk === 'object' &&
      chunk.type === 'test:complete' &&
      chunk.data &&
      chunk.data.details &&
      chunk.data.details.type !== 'suite'
    ) {
      const { skip, todo, details } = chunk.data;
      record.testEnded(skip || todo ? 'skipped' : details.passed ? 'passed' : 'failed');
    }
    return push.call(this, chunk, ...rest);
  };

  // jest's environments and mocha's classes are loaded by node's own require.
  const hooked = new WeakSet();
  const hookEnvironment = (Environment) => {
    if (typeof Environment !== 'function' || hooked.has(Environment)) return;
    hooked.add(Environment);
    record.markRunner();
    const own = Environment.prototype.handleTestEvent;
    Environment.prototype.handleTestEvent = function (event, state) {
      if (event && event.name === 'setup') watchMatchers(this.global && this.global[MATCHERS], 'jest');
      else if (event && event.name === 'test_done')
        record.testEnded(event.test.errors && event.test.errors.length > 0 ? 'failed' : 'passed');
      else if (event && (event.name === 'test_skip' || event.name === 'test_todo')) record.testEnded('skipped');
      return own ? own.call(this, event, state) : undefined;
    };
  };
  const load = Module._load;
  Module._load = function (request, ...rest) {
    const loaded = load.call(this, request, ...rest);
    if (typeof request === 'string' && /jest-environment-(node|jsdom)/.test(request) && loaded) {
      hookEnvironment(loaded.TestEnvironment);
      hookEnvironment(loaded.default);
    } else if (
      loaded &&
      typeof loaded === 'function' &&
      typeof loaded.Runner === 'function' &&
      typeof loaded.Runnable === 'function' &&
      mochaClasses.length === 0
    ) {
      record.markRunner();
      for (const name of ['Runner', 'Runnable', 'Test', 'Suite', 'Hook']) snapshot(name, loaded[name]);
    }
    return loaded;
  };

  // vitest: its matcher table and its worker state are defined on globalThis.
  const defineProperty = Object.defineProperty;
  Object.defineProperty = function (target, key, descriptor) {
    if (target === globalThis && key === MATCHERS && descriptor && typeof descriptor.get === 'function')
      return defineProperty.call(this, target, key, matchersGetter(descriptor));
    if (target === globalThis && descriptor && descriptor.value !== null && typeof descriptor.value === 'object') {
      if (key === MATCHERS) watchMatchers(descriptor.value, 'vitest');
      else if (key === '__vitest_worker__') watchVitest(descriptor.value);
    }
    return defineProperty.call(this, target, key, descriptor);
  };
  // vitest 4 and later define the table's holder as a getter that builds it anew at each read, around
  // one matcher table: each holder it builds hands out the same proxy of that table.
  const matchersGetter = (descriptor) => {
    let raw = null;
    let proxy = null;
    return {
      ...descriptor,
      get() {
        const holder = descriptor.get.call(this);
        if (holder && typeof holder.matchers === 'object' && holder.matchers !== null) {
          if (raw !== holder.matchers) {
            raw = holder.matchers;
            watchMatchers(holder, 'vitest');
            proxy = holder.matchers;
          } else holder.matchers = proxy;
        }
        return holder;
      },
    };
  };
  const watchVitest = (workerState) => {
    record.markWorker();
    let current = workerState.current;
    let running = null;
    const outcome = (task) => {
      const state = task.result && task.result.state;
      return state === 'fail' ? 'failed' : state === 'pass' ? 'passed' : 'skipped';
    };
    defineProperty(workerState, 'current', {
      configurable: true,
      enumerable: true,
      get: () => current,
      set: (task) => {
        if (running && task !== running) {
          record.testEnded(outcome(running));
          running = null;
        }
        if (task && task.type === 'test' && task !== running) {
          running = task;
          record.testStarted();
        }
        current = task;
      },
    });
  };
}

module.exports = { guardRunners };
