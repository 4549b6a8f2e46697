// A suite runner whose every test run is a function of the test's: the assessment's rival search
// and checkouts are exercised without a real runner, reading the checkout as a real one would.
import type { GateResult } from '../../src/core/gate-result.ts';
import type { CommandView, SuiteRunner } from '../../src/gate/setup-then-gate.ts';

/** What a run gives back: passed or failed, with no per-test report. */
export function standInGate(passed: boolean): GateResult {
  const report = { format: 'unknown', parsed: false, passed: 0, failed: 0, skipped: 0, total: 0, tests: [] } as const;
  return passed
    ? { passed: true, report: { ...report, tests: [] }, output: '', durationMs: 1 }
    : { passed: false, reason: 'NON_ZERO_EXIT', exitCode: 1, report: { ...report, tests: [] }, output: '', durationMs: 1 };
}

/** `run` for the whole suite and for every other command alike; no setup, no checks, no plain command. */
export function standInSuite(run: (cwd: string, view?: CommandView) => Promise<GateResult>): SuiteRunner {
  const suite: SuiteRunner = {
    testCommand: 'npm test',
    setupCommand: null,
    setup: async () => null,
    gate: (cwd) => run(cwd),
    gateWith: (cwd, _command, _timeoutMs, view) => run(cwd, view),
    plain: () => Promise.reject(new Error('this test runs no command of its own')),
    checkCommands: [],
    checks: async () => [],
    judged: () => suite,
  };
  return suite;
}
