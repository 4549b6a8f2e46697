'use strict';
// Files the guard knows by their name: tests (for files the judge did not list), and the runners'
// configuration and setup files, whose frames are the runner's or the tests' side. A name alone can be
// taken by any file a patch adds, so in a judged run a configuration or setup file is one only when
// the judge lists it (guard-caller.cjs); fixloop's judge finds those at the baseline with these same
// patterns (src/verify/exempt-files.ts).

/** A test file by its name: `*.test.*`, `*.spec.*`, `*_test.*`, `*-test.*`, or under test folders. */
const TEST_NAME = /(^|\/)(tests?|__tests__|specs?)\/|[._-](test|spec)\.[cm]?[jt]sx?$|(^|\/)test\.[cm]?[jt]sx?$/;
const CODE = /\.[cm]?[jt]sx?$/;
/**
 * The runners' own configuration in the repository: the runner's, not the code's. Only names the judge
 * protects (src/verify/runner-files.ts): a file the guard takes as the runner's is one no patch changes.
 */
const RUNNER_CONFIG =
  /(^|\/)(\.mocharc\.[cm]?js|(jest|vitest|vite|ava|playwright)\.(config|workspace)\.[cm]?[jt]s|babel\.config\.[cm]?js|\.babelrc\.[cm]?js)$/;
/**
 * Setup files a runner's configuration names (`setupTests.js`, `jest.setup.js`, `test-setup.ts`): the
 * tests' side, and protected as the tests are. Named for the tests, not only "setup": `db-setup.js`
 * is the code's.
 */
const SETUP = /(^|\/)(setupTests|setup[.-]tests?|(jest|vitest|mocha|tests?|specs?)[.-]setup)\.[cm]?[jt]sx?$/;

module.exports = { TEST_NAME, CODE, RUNNER_CONFIG, SETUP };
