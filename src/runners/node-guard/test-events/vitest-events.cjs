'use strict';
// vitest, 1 to 5: its runner keeps the task it is at in its worker state, the object it defines on
// globalThis as `__vitest_worker__`: `current` is a file while it is collected and a suite while it
// runs, a test from before its beforeEach hooks until its result is final (after its afterEach hooks,
// retries and repeats), then that test's suite again; nothing once the worker's files have run. A test
// that does not run (skipped, todo, filtered out, under a skipped suite) never becomes `current`: it
// ends with its file, when `current` moves to another file or to nothing. Tests run concurrently
// (`test.concurrent`) take `current` from each other: each ends when `current` moves and its result
// is final. `current` set to nothing is the worker done with the files it was given (its pool may end
// it right after, without an exit). vitest 1.0 to 1.3 make only tests `current`, and nothing after
// each one: a worker whose file runs no test (every one filtered out by `-t`) never touches it. Every
// version from 1.0 sets the worker state's `environmentTeardownRun` once its files have run, after
// their last test: the worker is done then too, its tests still running ended (their results are
// final) and the tests of its last file that never ran ended as skipped.
const { testError } = require('./test-error.cjs');

/** @typedef {import('./test-events.cjs').Listener} Listener */
/** @typedef {import('./test-events.cjs').Outcome} Outcome */
/**
 * A task as vitest keeps it, as far as this reads it: a test, a suite, or a file (a suite with a
 * `filepath`; in vitest 3 a suite's chain may stop below it).
 * @typedef {{ type?: string, name?: string, mode?: string, filepath?: string, suite?: Task, file?: Task, tasks?: Task[],
 *   result?: { state?: string, errors?: unknown[] } }} Task
 */

const FINAL = new Set(['pass', 'fail', 'skip', 'todo']);

/** @param {Listener} listener */
function followVitest(listener) {
  const defineProperty = Object.defineProperty;
  const watched = new WeakSet();
  /** @type {WeakSet<Task>} */
  const ended = new WeakSet();
  const end = ender(listener, ended);
  /** @param {{ current?: Task | null, environmentTeardownRun?: unknown }} workerState */
  const watchCurrentTask = (workerState) => {
    if (watched.has(workerState)) return;
    watched.add(workerState);
    if (listener.vitestWorker) listener.vitestWorker();
    let current = workerState.current;
    /** @type {Task[]} tests started, not yet ended */
    let running = [];
    /** @type {Task | null} the file of the tasks last made current */
    let file = null;
    defineProperty(workerState, 'current', {
      configurable: true,
      enumerable: true,
      get: () => current,
      /** @param {Task | null | undefined} task */
      set: (task) => {
        if (running.length > 0 && task !== running[running.length - 1]) {
          const done = running.filter((t) => t !== task && isFinal(t));
          if (done.length > 0) {
            running = running.filter((t) => done.indexOf(t) === -1);
            for (const test of done) end(test, true);
          }
        }
        const next = task ? task.file || (typeof task.filepath === 'string' ? task : null) : null;
        // Left once its run is over (its result final): a worker collects all its files before it
        // runs them (without isolation), and leaves each file then too.
        if (file && next !== file && isFinal(file)) {
          for (const test of running) end(test, true);
          running = [];
          endUnran(file, end, ended);
          file = null;
        }
        if (next) file = next;
        if (task && task.type === 'test' && running.indexOf(task) === -1 && !ended.has(task)) {
          running.push(task);
          if (listener.started) listener.started();
          if (listener.vitestTest) listener.vitestTest(task);
        }
        current = task;
        if (!task && listener.vitestFilesRun) listener.vitestFilesRun();
      },
    });
    watchTeardown(defineProperty, workerState, () => {
      for (const test of running.filter(isFinal)) end(test, true);
      running = running.filter((t) => !isFinal(t));
      if (file) endUnran(file, end, ended);
      if (listener.vitestFilesRun) listener.vitestFilesRun();
    });
  };
  const object =
    /** @type {{ defineProperty: (this: unknown, target: unknown, key: PropertyKey, descriptor: PropertyDescriptor) => unknown }} */ (
      /** @type {unknown} */ (Object)
    );
  object.defineProperty = function (target, key, descriptor) {
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
}

/**
 * Tells the listener that a test ended, with its outcome, and remembers it ended.
 * @param {Listener} listener
 * @param {WeakSet<Task>} ended
 * @returns {(task: Task, started: boolean) => void}
 */
function ender(listener, ended) {
  return (task, started) => {
    ended.add(task);
    const state = task.result && task.result.state;
    /** @type {Outcome} */
    const outcome = state === 'fail' ? 'failed' : state === 'pass' ? 'passed' : 'skipped';
    const errors = task.result && task.result.errors;
    listener.ended({
      runner: 'vitest',
      file: task.file && typeof task.file.filepath === 'string' ? task.file.filepath : null,
      titles: titlesOf(task),
      outcome,
      error: outcome === 'failed' ? testError(errors && errors[0]) : null,
      key: task,
      again: false,
      started,
    });
  };
}

/**
 * Calls `tornDown` when the worker state says its environment is torn down (its files have run).
 * @param {ObjectConstructor['defineProperty']} defineProperty
 * @param {{ environmentTeardownRun?: unknown }} workerState
 * @param {() => void} tornDown
 */
function watchTeardown(defineProperty, workerState, tornDown) {
  let value = workerState.environmentTeardownRun;
  defineProperty(workerState, 'environmentTeardownRun', {
    configurable: true,
    enumerable: true,
    get: () => value,
    /** @param {unknown} next */
    set: (next) => {
      value = next;
      if (next === true) tornDown();
    },
  });
}

/**
 * Whether a task's result is its last.
 * @param {Task} task
 */
function isFinal(task) {
  return FINAL.has(String(task.result && task.result.state));
}

/**
 * Ends the tests of a file that ended without running them, in their order.
 * @param {Task} task
 * @param {(task: Task, started: boolean) => void} end
 * @param {WeakSet<Task>} ended
 */
function endUnran(task, end, ended) {
  for (const child of task.tasks || []) {
    if (child.type === 'test' && !ended.has(child)) end(child, false);
    else if (child.type === 'suite') endUnran(child, end, ended);
  }
}

/**
 * The titles of its suites below its file, and its own.
 * @param {Task} task
 */
function titlesOf(task) {
  const titles = [String(task.name)];
  /** @type {Task | undefined} */
  let top;
  for (let suite = task.suite; suite && suite !== task.file && typeof suite.filepath !== 'string'; suite = suite.suite) {
    titles.unshift(String(suite.name));
    top = suite;
  }
  // vitest 1's collector puts every file's tests in an unnamed suite of its own, which no reporter names.
  if (top && top.name === '' && (!top.suite || top.suite === task.file) && titles.length > 1) titles.shift();
  return titles;
}

module.exports = { followVitest };
