import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/slow: what costs CI minutes it cannot spare and is measured in bench/ as well (the repair
    // engine on a real bug, end to end): `npm run test:full` runs it (vitest.full.config.ts).
    exclude: [...configDefaults.exclude, 'test/slow/**'],
    // Integration tests spawn real git and real test runners: give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker runs file after file (vitest's default starts one per file): ~50 s of a 2-core CI run
    // (stop 36, "CI time, third step", in the git history of docs/benchmarks.md). A test file that
    // changes the process's environment puts it back in place (hostile-repos, judge-bench's withEnv),
    // never by replacing process.env.
    isolate: false,
    // Two files at a time on CI's 2 cores (vitest's default, cores − 1, is one): most of the suite's
    // time is spent waiting on child processes, leases and servers, not on vitest's own CPU. Waits in
    // the tests are on real signals with room for a loaded machine (test/support/child-output.ts).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFirstSequencer },
    reporters: ['default', './test/support/summary-reporter.ts'],
    env: {
      // A developer's or CI's git configuration must not change results (docs/design.md §6).
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      // The command line keeps its runs in the user's data folder: the tests' go to one of their own.
      XDG_DATA_HOME: join(tmpdir(), 'fixloop-tests-data'),
      // Every `fixloop` the tests start (the CLI, `serve`, workers: a few hundred processes) compiles the same
      // sources: Node 24 keeps the compiled code on disk and checks it against each file's content, so
      // a process after the first starts on about half the CPU time. Repositories' commands never see
      // this variable (the sandbox passes an allow-list), and Node 20 ignores it.
      NODE_COMPILE_CACHE: join(tmpdir(), 'fixloop-tests-compile-cache'),
    },
  },
});
