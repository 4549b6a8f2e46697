// `npm run test:full`: the whole suite, with what CI leaves out to stay within its time: test/slow/
// (the repair engine on a real bug, end to end, minutes each), and every cheat case of the judge's
// suites under every sandbox backend (CI runs those whose verdict depends on the backend under bwrap
// too, all of them under `process`: test/support/judge-cheat-run.ts).
import { configDefaults, defineConfig } from 'vitest/config';
import suite from './vitest.config.ts';

// Replaced, not merged: vitest's mergeConfig would keep the suite's exclusion of test/slow.
export default defineConfig({
  ...suite,
  test: { ...suite.test, exclude: configDefaults.exclude, env: { ...suite.test?.env, FIXLOOP_TEST_FULL: '1' } },
});
