// `npm run test:slow`: the tests CI does not run (test/slow/), with the suite's own settings. Each
// costs minutes on a 2-core machine and checks what bench/ measures too: the repair engine on a real
// bug of a real project, through `fixloop run` (docs/benchmarks.md, "The real corpus").
import { configDefaults, defineConfig } from 'vitest/config';
import suite from './vitest.config.ts';

// Replaced, not merged: vitest's mergeConfig would add these globs to the suite's own.
export default defineConfig({ ...suite, test: { ...suite.test, include: ['test/slow/**/*.test.ts'], exclude: configDefaults.exclude } });
