'use strict';
// Where each test starts and ends, told to `take` (spectra-coverage.cjs): null when a test starts,
// its title and state when it ends. The runners' events are followed by the module the runtime guard
// records its tests with (runners/node-guard/test-events/, mounted beside this folder): mocha's
// 'test' and 'test end', node's runner's `test:dequeue` and its report of the test, jest's
// 'test_start' and 'test_done', vitest's worker state's `current` task.
// A test's title is the one the runner's report names it by: mocha's full title (its suites' titles
// and its own, spaced); node's, jest's and vitest's titles joined by ' > ', vitest's after its file.
const { relative, sep } = require('node:path');
const { followTests } = require('../../../../runners/node-guard/test-events/test-events.cjs');

/** @typedef {import('./spectra-coverage.cjs').Take} Take */
/** @typedef {import('../../../../runners/node-guard/test-events/test-events.cjs').EndedTest} EndedTest */

/**
 * @param {Take} take
 * @param {string} root the repository (vitest names a file by its path under it)
 */
function followSpectraTests(take, root) {
  followTests({
    started: () => take(null),
    // A test that never started (mocha's pending ones, a failed hook, jest's skipped ones) ran nothing
    // of its own; a later word on a test that ended (an error after it passed) is no run of it.
    ended: (test) => {
      if (test.started && !test.again) take({ title: titleOf(test, root), state: test.outcome });
    },
  });
}

/**
 * @param {EndedTest} test
 * @param {string} root
 */
function titleOf(test, root) {
  if (test.runner === 'mocha') return test.titles.join(' ');
  if (test.runner === 'vitest' && test.file) return [relative(root, test.file).split(sep).join('/'), ...test.titles].join(' > ');
  return test.titles.join(' > ');
}

module.exports = { followSpectraTests };
