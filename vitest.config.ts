import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.ts';

/**
 * Files of whole runs that only `npm run test:full` runs: CI's 2 cores took 1,960 s for the whole
 * suite (stop 59), past its 15 minutes. Each names the file CI keeps that shows the same capability.
 */
const FULL_SUITE_ONLY = [
  'test/integration/action-assign.test.ts', // the Action: action.test.ts; assignments: app-assign.test.ts
  'test/integration/action-pull-requests.test.ts', // pull requests: app-pull-requests.test.ts
  'test/integration/app-agent.test.ts', // the agent engine: agent-engine.test.ts; the App: app-e2e.test.ts
  'test/integration/app-processes.test.ts', // runs across a SIGKILL and pg-boss: test/jobs/
  'test/integration/assessment-change-values.test.ts', // the assessment: assessment.test.ts
  'test/integration/assessment-ungenerated.test.ts', // the assessment: assessment.test.ts
  'test/integration/cli-agent.test.ts', // the agent engine: agent-engine.test.ts, red-green.test.ts
  'test/integration/cli-flaky.test.ts', // flaky tests: app-checks.test.ts, test/gate/flaky-tests.test.ts
  'test/integration/cli-replay-publish.test.ts', // replay: test/loop/local-run.test.ts
  'test/integration/cli-runs.test.ts', // the run records: cli-data-dir.test.ts
  'test/integration/cli-terminal.test.ts', // the report: cli-run.test.ts
  'test/integration/cli-working-tree.test.ts', // working trees: library-working-tree.test.ts
  'test/integration/judge-cheats-expectations.test.ts', // the judge: judge-cheats*.test.ts
  'test/integration/judge-cheats-node-guard.test.ts', // the Node guard: test/runners/node-guard*.test.ts
  'test/integration/judge-cheats-vitest.test.ts', // the judge: judge-cheats.test.ts, judge-cheats-pytest.test.ts
  'test/integration/judge-checkout-named-tests.test.ts', // the second observation: test/verify/
  'test/integration/judge-honest-node-files.test.ts', // honest fixes: judge-cheats*.test.ts
  'test/integration/library-example.test.ts', // the library: test/library/
  'test/engines/repair/explore-plausible.test.ts', // the repair engine: cli-repair.test.ts
  'test/engines/repair/repair-engine.test.ts', // the repair engine: cli-repair.test.ts
  'test/engines/repair/localize/hooked-spectra.test.ts', // localization: cli-repair.test.ts's default engine, ochiai.test.ts
  'test/engines/agent/red-green.test.ts', // the agent engine: agent-engine.test.ts
  'test/jobs/crash-recovery.test.ts', // jobs left unfinished: pgboss-adoption.test.ts
  'test/engines/repair/focused-command.test.ts', // the repair engine: cli-repair.test.ts
  'test/engines/repair/validate-candidates.test.ts', // the repair engine: cli-repair.test.ts
  'test/forge/stand-in-forge-flow.test.ts', // a forge: app-e2e.test.ts
  'test/sandbox/operator-toolchains.test.ts', // package settings: package-settings.test.ts
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/slow: what costs CI minutes it cannot spare and is measured in bench/ as well (the repair
    // engine on a real bug, end to end); FULL_SUITE_ONLY: whole runs whose capability a file CI keeps
    // shows too. `npm run test:full` runs them all (vitest.full.config.ts).
    exclude: [...configDefaults.exclude, 'test/slow/**', ...FULL_SUITE_ONLY],
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
