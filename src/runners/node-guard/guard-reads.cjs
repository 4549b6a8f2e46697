'use strict';
// Reads of test files by code that is not a test: a function that reads the test to return what it
// expects. Every public way `fs` opens a file by its path (read, open, stream, copy, link) is
// watched; the path is checked first (cheap: node's own CommonJS loader reads every module through
// `fs.readFileSync`), the stack only when it names a test file. A child process that reads it
// (`cat`) is not seen: docs/security.md lists what the guard cannot see.
const fs = require('node:fs');
const { resolve } = require('node:path');
const { fileURLToPath } = require('node:url');

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

/**
 * @param {import('./guard-record.cjs').GuardRecord} record
 * @param {import('./guard-caller.cjs').Caller} who
 */
function guardReads(record, { caller, inRepository, isTest, fromLoader }) {
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
   * @param {unknown} target
   * @param {string} how
   */
  const check = (target, how) => {
    const path = pathOf(target);
    const rel = path && inRepository(path);
    if (!rel || !isTest(rel) || fromLoader()) return;
    const who = caller(false);
    if (who) record.event('test_file_read', who, `${how} ${rel}${who.unknown ? UNKNOWN : ''}`);
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
    functions[name] = function (target, ...rest) {
      check(target, `${prefix}${name}`);
      return own.call(this, target, ...rest);
    };
  };
  for (const name of READERS.fs) wrap(fs, 'fs.', name);
  for (const name of READERS.promises) wrap(fs.promises, 'fs.promises.', name);
}

module.exports = { guardReads };
