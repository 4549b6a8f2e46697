'use strict';
// node's test runner (Node 18.17 and later), in the process that runs a test file: it pushes its
// events as objects into its reporter's Readable stream. `test:dequeue` comes right before a test or
// a suite runs; once it has run, `test:start` (in the order the tests were defined, each suite
// before its first test's) and then `test:pass` or `test:fail` are what its reporters are given, with
// the test's nesting, so the suites around a test are the ones that started last at each level
// above it. The process that starts one process per file (`node --test` without
// `--test-isolation=none`) only passes on its files' events again: it is not followed. Each test
// or suite reported ending is told too (`nodeTestReported`): a file that reports none is reported by
// that process as one test (guard-file-test.cjs). A suite is dequeued too, and told started, as its
// type is not known then (Node 20 gives none): its end is told (`suiteEnded`) so that nothing reads
// it as still running. That matters where node's runner is not the process's own: a vitest file that
// takes its `describe` from node:test runs node's suite in vitest's worker, whose record is complete
// only with no test left running (guard-record.cjs; issue 49).
const { Readable } = require('node:stream');
const { testError } = require('./test-error.cjs');

/** @typedef {import('./test-events.cjs').Listener} Listener */
/**
 * A test's event as node's runner pushes it, as far as this reads it.
 * @typedef {{ type?: string, data?: { name?: string, nesting?: number, file?: string, skip?: unknown, todo?: unknown,
 *   details?: { type?: string, passed?: boolean, error?: unknown } } }} TestEvent
 */

/** @param {Listener} listener */
function followNodeTest(listener) {
  const orchestrates =
    process.execArgv.includes('--test') && !process.execArgv.some((o) => /^--(experimental-)?test-isolation=none$/.test(o));
  if (orchestrates) return;
  /** @type {string[]} the suites that started last, by nesting */
  const names = [];
  /** @type {string[]} the tests and suites dequeued and not yet reported ending, by nesting and name */
  const running = [];
  const push = Readable.prototype.push;
  /**
   * @param {TestEvent | null} chunk
   * @param {...BufferEncoding} rest
   */
  Readable.prototype.push = function (chunk, ...rest) {
    if (chunk !== null && typeof chunk === 'object' && typeof chunk.type === 'string' && chunk.data) {
      const type = chunk.type;
      const data = chunk.data;
      const nesting = typeof data.nesting === 'number' ? data.nesting : 0;
      const key = `${nesting}\u0000${String(data.name)}`;
      if (type === 'test:dequeue') {
        running.push(key);
        if (listener.started) listener.started();
      } else if (type === 'test:start') {
        names.length = nesting;
        names[nesting] = String(data.name);
      } else if ((type === 'test:pass' || type === 'test:fail') && listener.nodeTestReported) listener.nodeTestReported();
      const ends = type === 'test:pass' || type === 'test:fail';
      const at = ends ? running.lastIndexOf(key) : -1;
      if (at !== -1) running.splice(at, 1);
      if (ends && at !== -1 && data.details && data.details.type === 'suite' && listener.suiteEnded) listener.suiteEnded();
      if (ends && data.details && data.details.type !== 'suite') {
        const outcome = data.skip || data.todo ? 'skipped' : type === 'test:pass' ? 'passed' : 'failed';
        const error = /** @type {{ cause?: unknown, code?: unknown } | null | undefined} */ (data.details.error);
        listener.ended({
          runner: 'node-test',
          file: typeof data.file === 'string' ? data.file : null,
          titles: [...names.slice(0, nesting), String(data.name)],
          outcome,
          // The runner wraps the test's own error (ERR_TEST_FAILURE): its cause is what the test threw.
          error:
            outcome !== 'failed'
              ? null
              : testError(error && error.code === 'ERR_TEST_FAILURE' && error.cause !== undefined ? error.cause : error),
          key: null,
          again: false,
          started: at !== -1,
        });
      }
    }
    return push.call(this, chunk, ...rest);
  };
}

module.exports = { followNodeTest };
