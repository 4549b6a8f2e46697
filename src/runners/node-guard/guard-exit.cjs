'use strict';
// Who ends the process or rewrites its exit status: `process.exit`, `process.reallyExit` (what exit
// calls, also reachable on its own), `process.abort`, a signal to itself or to its parent
// (`process.kill`, `process._kill`), and `process.exitCode` written. The runner's own calls (from its
// files in node_modules) and the tests' are not events; code of the repository's is, and so is a
// call no file made (`setTimeout(process.exit)`), which only a callback handed to node can be. Only
// in a process that runs tests: a program a test starts (a CLI under test) may end as it likes.

/** @typedef {import('./guard-record.cjs').GuardRecord} GuardRecord */
/** @typedef {import('./guard-caller.cjs').Caller} Caller */

/**
 * @param {GuardRecord} record
 * @param {Caller['caller']} caller
 */
function guardExits(record, caller) {
  // `process` as a table of its functions, node's internal ones (`reallyExit`, `_kill`) among them.
  const functions = /** @type {Record<string, (this: unknown, ...args: unknown[]) => unknown>} */ (
    /** @type {unknown} */ (process)
  );
  let exiting = false;
  /**
   * Records the call when the code made it; the record is written before the process goes.
   * @param {string} detail
   */
  const note = (detail) => {
    if (!record.runsTests()) return;
    const who = caller();
    if (who) record.event('exit', who, detail);
  };
  /**
   * @param {string} name
   * @param {(args: unknown[]) => string} detail
   */
  const wrap = (name, detail) => {
    const own = functions[name];
    if (typeof own !== 'function') return;
    functions[name] = function (...args) {
      if (!exiting) {
        exiting = name === 'exit' || name === 'reallyExit' || name === 'abort';
        note(detail(args));
      }
      return own.apply(this, args);
    };
  };
  wrap('exit', (args) => `process.exit(${args.length ? String(args[0]) : ''})`);
  wrap('reallyExit', (args) => `process.reallyExit(${String(args[0])})`);
  wrap('abort', () => 'process.abort()');
  for (const name of ['kill', '_kill']) {
    const own = functions[name];
    if (typeof own !== 'function') continue;
    functions[name] = function (pid, signal, ...rest) {
      const target = Number(pid);
      const self = target === process.pid || target === 0 || target === -process.pid;
      if ((self || target === process.ppid) && signal !== 0 && !exiting)
        note(`process.kill(${self ? 'process.pid' : 'process.ppid'}, ${String(signal ?? 'SIGTERM')})`);
      return own.call(this, pid, signal, ...rest);
    };
  }
  // The exit status: an accessor in current Node; its setter is wrapped where it can be.
  const descriptor = Object.getOwnPropertyDescriptor(process, 'exitCode');
  if (descriptor && descriptor.configurable && typeof descriptor.set === 'function') {
    Object.defineProperty(process, 'exitCode', {
      ...descriptor,
      /** @param {unknown} value */
      set(value) {
        note(`process.exitCode = ${String(value)}`);
        /** @type {(v: unknown) => void} */ (descriptor.set).call(this, value);
      },
    });
  }
  process.on('exit', (code) => record.exited(code));
}

module.exports = { guardExits };
