'use strict';
// fixloop's runtime guard for Node test processes (docs/design.md §3.2.7), preloaded with
// `NODE_OPTIONS=--require <this file>` so it runs before the repository's code in the runner's main
// process and in every process and worker thread it starts (node --test's per-file processes, jest's
// and vitest's workers: NODE_OPTIONS reaches child processes, and node runs `--require` preloads in
// worker threads too). A plain CommonJS preload covers ESM test files as well: the objects it guards
// are the ones `import` hands out, and its patches are synced into the builtins' ESM exports.
//
// Without its channel (FIXLOOP_GUARD) it does nothing: a process fixloop did not ask to guard.
//
// What it does not see (said in the report to the lead, for docs/security.md):
// - the channel is gone from `process.env` before the repository's code runs, but a process's
//   `/proc/<pid>/environ` keeps the environment it started with: code that reads it learns the
//   records folder. Its own record is signed with a key it claimed before that code ran
//   (guard-key.cjs), so a record rewritten or removed there is missing evidence; the keys still in
//   the pool can be read, and handed to a later process of the same run (docs/security.md);
// - `eval` and `new Function` of a string (no hook in V8 short of forbidding them for everyone);
//   what such code then does to the guarded objects is still seen;
// - reads of a test file by another program that inherits the environment (`cat`); a child started
//   without the preload in its NODE_OPTIONS is an event (guard-children.cjs);
// - an inspector session opened by the code (`node:inspector`) can reach the guard's closures;
// - the exit of a process killed from outside (SIGKILL) leaves its record incomplete, which the
//   judge counts as missing evidence: never green, never a named cause;
// - vitest's lines are found by their text (its maps stay in its main process): a line that occurs
//   twice is named as the one nearer to where the transformed line ran.
const Module = require('node:module');
const { takeChannel, handDown } = require('./guard-channel.cjs');
const { createRecord } = require('./guard-record.cjs');
const { createCaller } = require('./guard-caller.cjs');
const { guardExits } = require('./guard-exit.cjs');
const { guardExports } = require('./guard-exports.cjs');
const { guardReads } = require('./guard-reads.cjs');
const { guardRoutes } = require('./guard-routes.cjs');
const { guardModuleData } = require('./guard-module-data.cjs');
const { guardSourceText } = require('./guard-source-text.cjs');
const { guardChildren } = require('./guard-children.cjs');
const { guardRunners } = require('./guard-runners.cjs');
const { guardFileTest } = require('./guard-file-test.cjs');
const { guardEnvironment } = require('./guard-environment.cjs');

/** npm, npx, yarn and pnpm run no repository code in their own process: they only hand the channel down. */
const PACKAGE_MANAGER =
  /(^|\/)(npm|npx|npm-cli|npx-cli|yarn|yarnpkg|pnpm|pnpx|corepack)(\.c?js)?$|\/(npm|yarn|pnpm|corepack)\/bin\//;

const channel = takeChannel();
if (channel) handDown(channel.value);
if (channel && !PACKAGE_MANAGER.test(process.argv[1] || '')) {
  const record = createRecord(channel);
  const who = createCaller(channel.root, channel.tests, channel.exempt);
  guardExits(record, who.caller);
  guardExports(record, who.caller, who.fromDependency);
  guardReads(record, who, channel);
  guardRoutes(record, who);
  guardModuleData(record, who);
  const watchSourceText = guardSourceText(record, who, channel);
  guardChildren(record, who.caller, channel.tests, channel.root);
  // A file node --test runs, in the process it started for it (a program a test starts inherits
  // NODE_TEST_CONTEXT, not the test file). Written at load: a process that ends without its exit
  // (killed, aborted) leaves an incomplete record. If it reports no test, node reports the file as one.
  const path = process.argv[1] ? require('node:path').resolve(process.argv[1]) : null;
  const main = path ? who.inRepository(path) : null;
  const fileRun = path && process.env.NODE_TEST_CONTEXT && main && who.isTest(main);
  const fileTest = fileRun ? guardFileTest(record, path, main) : null;
  // Last: the guard's own reads above are not the code's.
  const watchEnvironment = guardEnvironment(record, who, channel);
  guardRunners(
    record,
    who,
    channel.root,
    { environment: watchEnvironment, sourceText: watchSourceText },
    fileTest ? fileTest.reported : undefined,
  );
  if (fileRun) record.markRunner();
  if (process.execArgv.includes('--test-isolation=none')) record.markRunner();
}
// `import { readFileSync } from 'node:fs'` reads the builtins' ESM exports, synced here once.
if (channel) Module.syncBuiltinESMExports();
