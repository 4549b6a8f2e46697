'use strict';
// Who made a probed call (probe-runtime.cjs), read from the call's stack: the first frame outside the
// probed file, and the frames in the repository's test files, which tell a failing test's call from a
// passing one's (failing-test-callers.ts). Part of the inlined probe runtime.
const { dirname } = require('./probe-records.cjs');

/** @typedef {import('./probe-records.cjs').ProbeFile} ProbeFile */

/**
 * @typedef {object} Caller
 * @property {string | undefined} site
 * @property {string[]} testLines
 */

/** Frames of a call's stack kept in `testLines`: a helper in a test file, the test that called it, and above. */
const TEST_LINES = 4;

/** @returns {string} */
function deepStack() {
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 40;
    return String(new Error().stack);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * The repository's test files (relative paths), as the assessment wrote them beside the record file
 * (`test-files.json`), read once per record file; empty when there is none.
 * @param {ProbeFile} file
 * @returns {Set<string>}
 */
function testFilesOf(file) {
  const { writer } = file;
  if (writer.testFiles === undefined) {
    writer.testFiles = new Set();
    try {
      /** @type {unknown} */
      const listed = writer.fs ? JSON.parse(writer.fs.readFileSync(`${dirname(writer.recordFile)}/test-files.json`, 'utf8')) : [];
      if (Array.isArray(listed)) for (const path of listed) if (typeof path === 'string') writer.testFiles.add(path);
    } catch {
      // No list: the callers are told by the first frame alone.
    }
  }
  return writer.testFiles;
}

/**
 * Who made the call. `site`, `test/url.test.ts:41`: the first stack frame outside the probed file,
 * node_modules and Node itself (a suite call is compared by it). `testLines`: the frames in the
 * repository's test files, innermost first: code between the test and the probed function (a
 * bundle the build generated, a helper) hides the test from `site`, and it is the test that tells
 * a failing test's call from a passing one's.
 * @param {ProbeFile} file
 * @param {string} id
 * @returns {Caller}
 */
function callerOf(file, id) {
  const probed = id.slice(0, id.indexOf('#'));
  const tests = testFilesOf(file);
  /** @type {Caller} */
  const found = { site: undefined, testLines: [] };
  for (const line of deepStack().split('\n').slice(1)) {
    // The runtime's own frames run in code compiled by `new Function`: `eval at …, <anonymous>:1:2`.
    if (line.includes('eval at')) continue;
    const inner = line.trim().endsWith(')')
      ? line.slice(line.lastIndexOf('(') + 1, -1)
      : line.trim().replace(/^at (async )?/, '');
    const match = /^(.*):(\d+):\d+$/.exec(inner);
    if (!match) continue;
    let path = match[1];
    if (path.startsWith('file://')) path = decodeURIComponent(new URL(path).pathname);
    const local = path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);
    if (!local || /[\\/]node_modules[\\/]/.test(path) || path.replace(/\\/g, '/').endsWith(`/${probed}`)) continue;
    const relative = path.startsWith(`${file.root}/`) ? path.slice(file.root.length + 1) : path;
    const at = `${relative}:${match[2]}`;
    if (found.site === undefined) found.site = at;
    if (tests.has(relative.replace(/\\/g, '/')) && !found.testLines.includes(at)) found.testLines.push(at);
    if (tests.size === 0 || found.testLines.length >= TEST_LINES) break;
  }
  return found;
}

module.exports = { callerOf };
