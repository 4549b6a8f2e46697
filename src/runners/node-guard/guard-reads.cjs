'use strict';
// Reads of test files by code that is not a test: a function that reads the test to return what it
// expects. Every public way `fs` opens a file by its path (read, open, stream, copy, link) is
// watched; the path is checked first (cheap: node's own CommonJS loader reads every module through
// `fs.readFileSync`), the stack only when it names a test file. A child process that reads it
// (`cat`) is not seen: docs/security.md lists what the guard cannot see.
const fs = require('node:fs');
const { resolve } = require('node:path');
const { fileURLToPath } = require('node:url');

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

function guardReads(record, { caller, inRepository, isTest, fromLoader }) {
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
  const check = (target, how) => {
    const path = pathOf(target);
    const rel = path && inRepository(path);
    if (!rel || !isTest(rel) || fromLoader()) return;
    const who = caller(false);
    if (who) record.event('test_file_read', who, `${how} ${rel}`);
  };
  const wrap = (owner, prefix, name) => {
    const own = owner[name];
    if (typeof own !== 'function') return;
    owner[name] = function (target, ...rest) {
      check(target, `${prefix}${name}`);
      return own.call(this, target, ...rest);
    };
  };
  for (const name of READERS.fs) wrap(fs, 'fs.', name);
  for (const name of READERS.promises) wrap(fs.promises, 'fs.promises.', name);
}

module.exports = { guardReads };
