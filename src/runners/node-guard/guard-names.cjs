'use strict';
// Files the guard knows by their name: tests (for files the judge did not list), and the runners'
// configuration and setup files, whose frames are the runner's or the tests' side. A name alone can be
// taken by any file a patch adds, so in a judged run a configuration or setup file is one only when
// the judge lists it (guard-caller.cjs); fixloop's judge finds those at the baseline with these same
// patterns (src/verify/exempt-files.ts).

/** A test file by its name: `*.test.*`, `*.spec.*`, `*_test.*`, `*-test.*`, or under test folders. */
const TEST_NAME = /(^|\/)(tests?|__tests__|specs?)\/|[._-](test|spec)\.[cm]?[jt]sx?$|(^|\/)test\.[cm]?[jt]sx?$/;
const CODE = /\.[cm]?[jt]sx?$/;
/** The runners' own configuration in the repository: the runner's, not the code's. */
const RUNNER_CONFIG = /(^|\/)(\.mocharc\.[cm]?js|[\w-]+\.config\.[cm]?[jt]s|[\w-]+\.workspace\.[cm]?[jt]s|\.babelrc\.[cm]?js)$/;
/** Setup files a runner's configuration names (`setupTests.js`, `jest.setup.js`): the tests' side. */
const SETUP = /(^|\/)(setupTests|[\w-]+[.-]setup)\.[cm]?[jt]sx?$/;

module.exports = { TEST_NAME, CODE, RUNNER_CONFIG, SETUP };
