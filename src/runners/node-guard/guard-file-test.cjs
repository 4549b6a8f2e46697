'use strict';
// A test file's process under node --test that reports no test of its own: node's parent process then
// reports the file itself as one test, named by the path it handed the process, passed when the
// process exits with 0 and failed otherwise (a file with no `test()` at all, one that throws before
// its first, or, on Node 24 (not on 20), one whose tests all miss `--test-name-pattern`: those are no
// longer reported as skipped). The guard counts that test as node does, from the exit it sees itself: else
// the runner's counts and the guard's differ on an honest run (the judge's runs alone name a pattern
// and no file). A process that reported any test or suite is left as it is.
const { readFileSync } = require('node:fs');
const { relative, resolve } = require('node:path');

/** @typedef {import('./guard-record.cjs').GuardRecord} GuardRecord */

/**
 * Watches this file's process; `reported` is told each test or suite node's runner reports ending here.
 * @param {GuardRecord} record
 * @param {string} main the file, as `process.argv[1]` gives it (absolute)
 * @param {string} file the same, relative to the checkout (as the guard names files)
 * @returns {{ reported: () => void }}
 */
function guardFileTest(record, main, file) {
  const name = handedName(main);
  let reported = false;
  // Before the guard's own exit listener (guard-exit.cjs), which writes the record complete.
  process.prependListener('exit', (code) => {
    if (reported) return;
    record.testEnded({ file, titles: [name], outcome: code === 0 ? 'passed' : 'failed' }, null, false);
  });
  return {
    reported: () => {
      reported = true;
    },
  };
}

/**
 * The path node's parent handed this process as its file, the last word of its command line (node
 * puts its options before the file): node names the file's test by it. Read before any repository
 * code runs. Where the command line cannot be read (no /proc), node's own rule: the absolute path
 * through Node 21, relative to the working folder from Node 22 on.
 * @param {string} main
 * @returns {string}
 */
function handedName(main) {
  try {
    const words = readFileSync('/proc/self/cmdline', 'latin1')
      .split('\0')
      .filter((w) => w !== '');
    const last = words[words.length - 1];
    if (last !== undefined && resolve(last) === main) return last;
  } catch {
    // below
  }
  return Number(process.versions.node.split('.')[0]) >= 22 ? relative(process.cwd(), main) : main;
}

module.exports = { guardFileTest };
