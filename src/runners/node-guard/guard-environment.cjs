'use strict';
// The runner detected through the environment: code that is right only under test asks whether a
// runner's variable is set (JEST_WORKER_ID, VITEST, NODE_TEST_CONTEXT; every runner's,
// src/runners/registry.ts RUNNER_VARIABLES) or reads the environment the process started with
// (`/proc/self/environ`, guard-reads.cjs). The static check finds such a name in the added lines;
// this finds it however the name was made (`'JEST_' + 'WORKER_ID'`, decoded). `process.env` is put
// behind a proxy:
// - a read of a runner's variable by name (`get`, `in`, `hasOwnProperty`) that the repository's code
//   (not a test) made itself is an event (`runner_detected`); node's own code, a dependency's and the
//   guard's are not the code's;
// - a listing or a copy of the environment that the repository's code (or a test) makes itself
//   (`Object.keys`, `{ ...process.env }`, `Object.entries`) leaves out the variables the runner set:
//   a name found by a pattern in a listing was never named, and an honest copy (a child's
//   environment) is the commonest listing there is, so the listing is not an event, and what it
//   would reveal is not in it. A variable the project's own code or tests set stays listed.
// Under jest, whose tests get a `process` of their own, that process's environment is watched too.
// An event the pristine code's run had too (the same file and detail) is the project's own way.
// vitest 5 hands the code `process.env` itself as `import.meta.env`: a read there is seen too.
// Not seen: a dependency's read made for the code (an older vitest's own object over `process.env`, a
// library that says whether it runs under test), a variable read before the guard loaded,
// `process.argv` and a stack's frames. The runner's globals (`describe` defined) are guard-intrinsics.cjs's.

/** @typedef {import('./guard-record.cjs').GuardRecord} GuardRecord */
/** @typedef {import('./guard-caller.cjs').Caller} Caller */

const KIND = 'runner_detected';
const HERE = /** @type {NodeJS.Module} */ (/** @type {unknown} */ (module)).filename;

/**
 * @param {GuardRecord} record
 * @param {Pick<Caller, 'direct' | 'byMachinery' | 'fromRepository'>} who
 * @param {Pick<import('./guard-channel.cjs').Channel, 'variables' | 'given'>} channel the runners' variables, as
 *   regular expressions' sources, and the variables the command was given: those are the operator's settings
 *   (PYTEST_ADDOPTS, a TEST=1 of the operator's), not a sign of the runner
 * @returns {(env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv} what watches another environment object
 */
function guardEnvironment(record, { direct, byMachinery, fromRepository }, { variables, given }) {
  const settings = new Set(given);
  const patterns = variables.flatMap((source) => {
    try {
      return [new RegExp(source)];
    } catch {
      return [];
    }
  });
  if (patterns.length === 0) return (env) => env;
  /** @param {string | symbol} key */
  const isRunners = (key) => typeof key === 'string' && !settings.has(key) && patterns.some((pattern) => pattern.test(key));
  /** @param {string} detail */
  const note = (detail) => runnerDetected(record, direct(HERE), detail);
  /** @param {NodeJS.ProcessEnv} env */
  const watch = (env) => {
    // The runner's own: those it started the process with, and those its code sets later.
    const runners = new Set(Reflect.ownKeys(env).filter(isRunners));
    // Those the project's code or tests set: reading one back tells nothing of the runner.
    /** @type {Set<string | symbol>} */
    const projects = new Set();
    /** @param {string | symbol} key */
    const named = (key) => {
      if (isRunners(key) && !projects.has(key)) note(`read the runner's variable ${String(key)} from the environment`);
    };
    return new Proxy(env, {
      get(target, key) {
        named(key);
        return Reflect.get(target, key);
      },
      has(target, key) {
        named(key);
        return Reflect.has(target, key);
      },
      getOwnPropertyDescriptor(target, key) {
        named(key);
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
      set(target, key, value) {
        if (isRunners(key)) {
          // The project's when its code or a test is anywhere on the stack (`vi.stubEnv` in a test).
          const project = fromRepository();
          (project ? projects : runners).add(key);
          (project ? runners : projects).delete(key);
        }
        return Reflect.set(target, key, value);
      },
      ownKeys(target) {
        const keys = Reflect.ownKeys(target);
        if (runners.size === 0 || byMachinery(HERE)) return keys;
        return keys.filter((key) => !runners.has(key));
      },
    });
  };
  const raw = process.env;
  process.env = watch(raw);
  watchReport(raw, process.env, byMachinery);
  return watch;
}

/**
 * node's diagnostic report lists the environment too (`process.report.getReport()`, its
 * `environmentVariables`, read by node from the process's own): a listing like `Object.keys` of
 * `process.env`, so the same variables, those the runner set, are left out of the report the
 * repository's code asks for. A report node or a dependency makes (a crash reporter) is whole. Not
 * seen: a report written to a file (`process.report.writeReport`) and read back.
 * @param {NodeJS.ProcessEnv} raw the process's environment
 * @param {NodeJS.ProcessEnv} watched the same behind the guard's proxy
 * @param {(file: string) => boolean} byMachinery
 */
function watchReport(raw, watched, byMachinery) {
  const report = /** @type {{ getReport?: (...args: unknown[]) => unknown } | undefined} */ (process.report);
  const getReport = report && report.getReport;
  if (!report || typeof getReport !== 'function') return;
  report.getReport = function (...args) {
    const made = /** @type {{ environmentVariables?: Record<string, unknown> } | null} */ (getReport.apply(this, args));
    const variables = made && made.environmentVariables;
    if (variables && typeof variables === 'object' && !byMachinery(HERE)) {
      // What a listing of the watched environment shows (the proxy's `ownKeys`) is what the report
      // keeps; a name is never asked of the proxy, which would count as a read of it.
      const listed = new Set(Object.keys(watched));
      for (const key of Object.keys(raw)) if (!listed.has(key)) delete variables[key];
    }
    return made;
  };
}

/**
 * Records the runner detected, when the repository's code itself made the read (`where`, from the
 * watcher's own call of `direct`: a frame of another file in between would be taken for the reader);
 * a read whose stack could not be read says so.
 * @param {GuardRecord} record
 * @param {ReturnType<Caller['direct']>} where
 * @param {string} detail
 */
function runnerDetected(record, where, detail) {
  if (where)
    record.event(KIND, where, where.unknown ? `${detail}: could not tell who read it (the stack could not be read)` : detail);
}

module.exports = { guardEnvironment, runnerDetected };
