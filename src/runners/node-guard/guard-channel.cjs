'use strict';
// The guard's channel: where its records go, which runner it guards and the repository's root,
// handed over in one variable (FIXLOOP_GUARD, JSON) that the guard removes from `process.env` at
// load, before the repository's code runs, and gives back only to the processes and worker threads
// this process starts (node's runner, jest and vitest start their workers from their main process).
// Code that scans its environment does not find it; `/proc/<pid>/environ`, which keeps a process's
// environment as it started, still shows it (docs/security.md says so).
const childProcess = require('node:child_process');
const workerThreads = require('node:worker_threads');

const VAR = 'FIXLOOP_GUARD';

/**
 * The channel as handed over: `value` the variable's text, `dir` the records folder, `runner` the
 * runner guarded, `root` the repository, `tests` the test files the judge listed (relative paths),
 * `exempt` the configuration and setup files it listed (null: the judge listed none, every file so named is),
 * `variables` the variables the runners set in their test processes (regular expressions' sources),
 * `given` the names of the variables the command itself was given.
 * @typedef {{ value: string, dir: string, runner: string, root: string, tests: string[], exempt: string[] | null,
 *   variables: string[], given: string[] }} Channel
 */

/**
 * The channel this process was given, or null (no guard asked for). Removes it from the environment.
 * @returns {Channel | null}
 */
function takeChannel() {
  const value = process.env[VAR];
  delete process.env[VAR];
  if (!value) return null;
  try {
    /** @type {{ dir?: unknown, runner?: unknown, root?: unknown, tests?: unknown, exempt?: unknown, variables?: unknown, given?: unknown }} */
    const channel = JSON.parse(value);
    if (typeof channel.dir !== 'string' || typeof channel.runner !== 'string' || typeof channel.root !== 'string') return null;
    return {
      value,
      dir: channel.dir,
      runner: channel.runner,
      root: channel.root,
      tests: Array.isArray(channel.tests) ? channel.tests : [],
      exempt: Array.isArray(channel.exempt) ? channel.exempt : null,
      variables: Array.isArray(channel.variables) ? channel.variables.filter((v) => typeof v === 'string') : [],
      given: Array.isArray(channel.given) ? channel.given.filter((v) => typeof v === 'string') : [],
    };
  } catch {
    return null;
  }
}

/** @typedef {{ envPairs?: string[] }} InternalSpawnOptions what node's internal `spawn` is handed */
/** @typedef {{ env?: NodeJS.ProcessEnv }} WithEnvironment */

/**
 * Gives the channel back to every process and worker thread this one starts.
 * @param {string} value the channel's variable, as this process was given it
 */
function handDown(value) {
  const pair = `${VAR}=${value}`;
  const ChildProcess = childProcess.ChildProcess;
  // Node's own method, in no public type.
  const prototype = /** @type {{ spawn: (this: unknown, options?: InternalSpawnOptions) => unknown }} */ (
    /** @type {unknown} */ (ChildProcess.prototype)
  );
  // spawn, fork, exec and execFile all end here, with the environment as "KEY=value" pairs.
  const spawn = prototype.spawn;
  prototype.spawn = function (options) {
    if (options && Array.isArray(options.envPairs))
      options.envPairs = [...options.envPairs.filter((p) => !p.startsWith(`${VAR}=`)), pair];
    return spawn.call(this, options);
  };
  // The synchronous ones read their options themselves: the environment is added to them.
  const functions = /** @type {Record<string, (this: unknown, ...args: unknown[]) => unknown>} */ (
    /** @type {unknown} */ (childProcess)
  );
  for (const name of ['spawnSync', 'execSync', 'execFileSync']) {
    const own = functions[name];
    functions[name] = function (...args) {
      const at = args.findIndex((a, i) => i > 0 && a !== null && typeof a === 'object' && !Array.isArray(a));
      if (at === -1)
        args.splice(name === 'execSync' || !Array.isArray(args[1]) ? 1 : 2, 0, { env: { ...process.env, [VAR]: value } });
      else {
        const options = /** @type {WithEnvironment} */ (args[at]);
        args[at] = { ...options, env: { ...(options.env || process.env), [VAR]: value } };
      }
      return own.apply(this, args);
    };
  }
  const Worker = workerThreads.Worker;
  workerThreads.Worker = class extends Worker {
    /**
     * @param {string | URL} file
     * @param {import('node:worker_threads').WorkerOptions} [options]
     */
    constructor(file, options = {}) {
      const shared = options.env === workerThreads.SHARE_ENV;
      // Not shared: the environment, if any, is variables.
      const env = /** @type {NodeJS.ProcessEnv | undefined} */ (options.env);
      super(file, shared ? options : { ...options, env: { ...(env || process.env), [VAR]: value } });
    }
  };
}

module.exports = { takeChannel, handDown, VAR };
