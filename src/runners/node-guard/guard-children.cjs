'use strict';
// A child process the repository's code starts without the guard: node loads this preload in every
// process it starts through NODE_OPTIONS, so a child given an environment that drops it (`env: {}`,
// a copy with NODE_OPTIONS deleted or rewritten) runs unwatched and could read the tests for its
// parent. Such a start is an event (`child_unguarded`) when code of the repository that is not a test
// makes it, or when no file on the stack says who did. A child that inherits the environment, or is
// given one that keeps the preload in NODE_OPTIONS, is not: honest suites start node that way. A
// node child given a module loader (`--loader`, `--experimental-loader`, in its arguments or its
// NODE_OPTIONS) that this process's own NODE_OPTIONS did not have is `loader_hook`: the loader runs
// in the child's loader thread, handed each module's source, the tests' too.
// A child of any program whose command line names a test file (`cat test/a.test.js`, `sh -c "grep …
// test/a.test.js"`), started by that code, is `test_file_read`: the guard cannot follow a program
// that is not node, and such a child reads the tests for its parent.
// So is one whose command line reads a folder that holds a test file, or the committed files through
// git (guard-child-reads.cjs).
// The channel itself (FIXLOOP_GUARD) is handed down by guard-channel.cjs whatever the code gives.
const childProcess = require('node:child_process');
const { dirname, join } = require('node:path');
const { childReadsTests } = require('./guard-child-reads.cjs');

/** The flags that give a node child a module loader, handed every module's source (the tests' too) in its loader thread. */
const LOADER = /(^|\s)--(experimental-)?loader(=|\s|$)/;
/** The NODE_OPTIONS this process started with: a loader already there is the project's, not the code's. */
const OWN_OPTIONS = process.env.NODE_OPTIONS || '';

/** This guard's preload, as NODE_OPTIONS names it (src/runners/node-guard.ts). */
const PRELOAD = join(dirname(/** @type {NodeJS.Module} */ (/** @type {unknown} */ (module)).filename), 'guard-preload.cjs');

/** @typedef {import('./guard-record.cjs').GuardRecord} GuardRecord */
/** @typedef {import('./guard-caller.cjs').Caller} Caller */
/** @typedef {(this: unknown, ...args: unknown[]) => unknown} AnyFunction */

/**
 * @param {GuardRecord} record
 * @param {Caller['caller']} caller
 * @param {readonly string[]} tests The test files, relative to the repository.
 * @param {string} root The repository.
 */
function guardChildren(record, caller, tests, root) {
  // Only where this process itself was reached through NODE_OPTIONS: there its children are expected to be.
  if (!(process.env.NODE_OPTIONS || '').includes(PRELOAD)) return;
  /**
   * @param {string | undefined} options NODE_OPTIONS as the child gets it
   * @param {unknown} file what the child runs
   * @param {unknown} [args] its arguments, where known
   * @param {unknown} [cwd] its working folder, where given
   */
  const started = (options, file, args, cwd) => {
    const kept = (options || '').includes(PRELOAD);
    const flags = `${options || ''} ${Array.isArray(args) ? args.join(' ') : ''}`;
    const loader = LOADER.test(flags) && !LOADER.test(OWN_OPTIONS);
    const test = tests.find((t) => `${String(file)} ${flags}`.includes(t));
    const named = test
      ? `the test file ${test} on its command line`
      : childReadsTests(file, args, typeof cwd === 'string' ? cwd : process.cwd(), root, tests);
    if (kept && !loader && !named) return;
    const where = caller();
    if (!where) return;
    if (named && !where.unknown) record.event('test_file_read', where, `started \`${String(file).slice(0, 120)}\` with ${named}`);
    if (kept && !loader) return;
    const unknown = where.unknown ? ': could not tell who started it' : '';
    if (!kept)
      record.event(
        'child_unguarded',
        where,
        `started \`${String(file)}\` with an environment without the guard's NODE_OPTIONS${unknown}`,
      );
    if (loader) record.event('loader_hook', where, `started \`${String(file)}\` with a module loader (--loader)${unknown}`);
  };
  const prototype = /** @type {{ spawn: AnyFunction }} */ (/** @type {unknown} */ (childProcess.ChildProcess.prototype));
  // spawn, fork, exec and execFile end here, with the environment as "KEY=value" pairs.
  const spawn = prototype.spawn;
  prototype.spawn = function (options) {
    const given = /** @type {{ envPairs?: unknown, file?: unknown, args?: unknown, cwd?: unknown } | undefined} */ (options);
    if (given && Array.isArray(given.envPairs)) started(lastOption(given.envPairs), given.file, given.args, given.cwd);
    return spawn.call(this, options);
  };
  // The synchronous ones read their options themselves: the environment given, or this process's.
  const functions = /** @type {Record<string, AnyFunction>} */ (/** @type {unknown} */ (childProcess));
  for (const name of ['spawnSync', 'execSync', 'execFileSync']) {
    const own = functions[name];
    if (typeof own !== 'function') continue;
    functions[name] = function (...args) {
      const options = args.find((a, i) => i > 0 && a !== null && typeof a === 'object' && !Array.isArray(a));
      const given = /** @type {{ env?: NodeJS.ProcessEnv, cwd?: unknown } | undefined} */ (options);
      const env = given?.env || process.env;
      started(env.NODE_OPTIONS, args[0], name === 'execSync' ? [args[0]] : args[1], given?.cwd);
      return own.apply(this, args);
    };
  }
}

/**
 * NODE_OPTIONS among "KEY=value" pairs (the last one, as the child's environment keeps it).
 * @param {unknown[]} pairs
 * @returns {string | undefined}
 */
function lastOption(pairs) {
  for (let i = pairs.length - 1; i >= 0; i--) {
    const pair = pairs[i];
    if (typeof pair === 'string' && pair.startsWith('NODE_OPTIONS=')) return pair.slice('NODE_OPTIONS='.length);
  }
  return undefined;
}

module.exports = { guardChildren };
