'use strict';
// Reads of test files by code that is not a test: a function that reads the test to return what it
// expects. Every public way `fs` opens a file by its path (read, open, stream, copy, link) is
// watched, in `fs` and `fs.promises`. A test file is known two ways: by the name the code gave
// (cheap: node's own CommonJS loader reads every module through `fs.readFileSync`), and by what that
// name reaches (guard-opened.cjs: the device and inode of the listed test files, so a path through
// `/proc/self/cwd`, a link the code made or a descriptor names the same file); `openSync` is checked
// on the descriptor it opened. The stack is read only when the file is a test. A child process that
// reads it (`cat`) is not seen: docs/security.md lists what the guard cannot see.
const fs = require('node:fs');
const { resolve } = require('node:path');
const { fileURLToPath } = require('node:url');
const { testIdentities } = require('./guard-opened.cjs');

/**
 * The environment and arguments a process started with, its own or another's (its parent, the
 * runner): code that reads them learns which runner runs it (`runner_detected`, guard-environment.cjs),
 * whatever the path's way there (`/proc/self/root/proc/1/environ`).
 */
const STARTED_WITH = /(^|\/)proc\/(self|thread-self|\d+)(\/task\/\d+)?\/(environ|cmdline)$/;
const HERE = /** @type {NodeJS.Module} */ (/** @type {unknown} */ (module)).filename;

/** What a read whose caller cannot be placed says: it counts against the run, never as nobody's. */
const UNKNOWN = ': could not tell who read it (the stack could not be read, or held no file)';

/** The methods, by object, whose first argument is the path read. */
const READERS = {
  fs: [
    'readFileSync',
    'readFile',
    'openSync',
    'open',
    'createReadStream',
    'copyFileSync',
    'copyFile',
    'cpSync',
    'cp',
    'linkSync',
    'link',
    'symlinkSync',
    'symlink',
    'openAsBlob',
  ],
  promises: ['readFile', 'open', 'copyFile', 'cp', 'link', 'symlink'],
};
/** The methods that return the descriptor they opened: checked on it, after the open. */
const OPENERS = new Set(['openSync']);
/** The methods that copy a folder whole: a folder holding a test file copies it. */
const FOLDER_COPIES = new Set(['cpSync', 'cp']);

/**
 * @param {import('./guard-record.cjs').GuardRecord} record
 * @param {import('./guard-caller.cjs').Caller} who
 * @param {{ root: string, tests: string[] }} channel the repository and the test files the judge listed
 */
function guardReads(record, { caller, direct, inRepository, isTest, fromLoader }, channel) {
  const identities = testIdentities(channel.root, channel.tests);
  /**
   * @param {unknown} target what the method was given as its path
   * @returns {string | null}
   */
  const pathOf = (target) => {
    try {
      if (typeof target === 'string') return resolve(target);
      if (target instanceof URL) return fileURLToPath(target);
      if (Buffer.isBuffer(target)) return resolve(target.toString());
    } catch {
      // not a path node would open either
    }
    return null; // a file descriptor or a handle: opened by path before, where it was seen
  };
  /**
   * @param {unknown} target what the method was given as its path
   * @param {string} how
   * @param {unknown} [opened] the descriptor the method opened, when it returns one
   */
  const check = (target, how, opened) => {
    const path = pathOf(target);
    if (path && STARTED_WITH.test(path)) {
      const who = direct(HERE);
      // A process id varies from run to run: the detail must not, to be compared with the baseline's.
      const read = path.slice(path.lastIndexOf('proc/')).replace(/\/\d+(?=\/)/g, '/<pid>');
      if (who) record.event('runner_detected', who, `read /${read}, what a process started with`);
      return;
    }
    const named = path && inRepository(path);
    const rel =
      named && isTest(named)
        ? named
        : (identities.reached(opened === undefined ? target : opened) ??
          (FOLDER_COPIES.has(how.slice(how.lastIndexOf('.') + 1)) ? identities.inside(target) : null));
    if (!rel || fromLoader()) return;
    // Named otherwise: the name it was opened by, too.
    const as = rel === named ? '' : ` (opened as ${typeof target === 'number' ? `descriptor ${target}` : String(path)})`;
    const who = caller(false);
    if (who) record.event('test_file_read', who, `${how} ${rel}${as}${who.unknown ? UNKNOWN : ''}`);
  };
  /**
   * @param {object} owner `fs` or `fs.promises`
   * @param {string} prefix
   * @param {string} name
   */
  const wrap = (owner, prefix, name) => {
    const functions = /** @type {Record<string, (this: unknown, ...args: unknown[]) => unknown>} */ (owner);
    const own = functions[name];
    if (typeof own !== 'function') return;
    functions[name] = OPENERS.has(name)
      ? function (target, ...rest) {
          const fd = own.call(this, target, ...rest);
          check(target, `${prefix}${name}`, fd);
          return fd;
        }
      : function (target, ...rest) {
          check(target, `${prefix}${name}`);
          return own.call(this, target, ...rest);
        };
  };
  for (const name of READERS.fs) wrap(fs, 'fs.', name);
  for (const name of READERS.promises) wrap(fs.promises, 'fs.promises.', name);
}

module.exports = { guardReads };
