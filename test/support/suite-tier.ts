// Which tier of the suite runs. `npm test` (what CI runs, within its 15 minutes on 2 cores) runs every
// unit and component test and, of the whole runs (a real `fixloop run`, the App, the Action), one or
// a few per capability; `npm run test:full` (vitest.full.config.ts sets FIXLOOP_TEST_FULL=1) runs
// every case: another runner's or backend's variant of a rule CI shows once, an honest twin beside
// its cheat, a scenario's second path. docs/developing.md says which is which and why.

/** True in `npm run test:full`. */
export const fullSuite = process.env.FIXLOOP_TEST_FULL === '1';
