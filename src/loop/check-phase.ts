// A check run's loop (docs/design.md §1.6): the gate is the checks, with the tests guarding against
// regressions (src/gate/check-gate.ts). The loop's baseline and every attempt's gate are that
// composite, so its rules hold as they are: progress is fewer diagnostics than the best so far, and a
// fingerprint is the diagnostics left. No test is written first: the check says what is wrong.
import type { CheckRun } from '../core/check-result.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { RunResult } from '../core/run-result.ts';
import { testCounts } from '../core/gate-summary.ts';
import { checkGate } from '../gate/check-gate.ts';
import { createCheckGateRunner, type CheckGateRunner } from '../gate/check-gate-runner.ts';
import type { AttemptLog } from './attempt-log.ts';
import type { PreparedRun } from './prepare-run.ts';

export interface CheckPhase {
  /** The loop's baseline: the checks' diagnostics as the failing tests. */
  baseline: GateResult;
  /** The authoritative gate in the workspace: the checks, then the tests. */
  runGate: (log: AttemptLog) => Promise<GateResult>;
  /** The same gate for the engines' own copies. */
  runner: CheckGateRunner;
}

export function checkPhase(run: PreparedRun, checks: CheckRun[]): CheckPhase {
  const suiteCommand = run.suite.testCommand;
  const left = () => Math.max(1000, run.deadline - Date.now());
  return {
    baseline: checkGate({ checks, suite: run.baseline, baseline: run.baseline, suiteCommand }),
    runner: createCheckGateRunner({
      sandbox: run.sandbox,
      config: run.config,
      baseline: run.baseline,
      testCommand: suiteCommand,
    }),
    async runGate(log) {
      const now = await run.suite.checks(run.workspace.root, left());
      const suite = await run.suite.gate(run.workspace.root, left());
      const gate = checkGate({ checks: now, suite, baseline: run.baseline, suiteCommand });
      log.section(`gate: ${[...run.suite.checkCommands, suiteCommand].join(' ; ')}`, gate.output);
      return gate;
    },
  };
}

/** Every check passes at the baseline: nothing to fix, whatever the tests say. */
export function checksPass(base: RunResult, run: PreparedRun, checks: CheckRun[]): RunResult | null {
  if (!checks.every((c) => c.passed)) return null;
  return { ...base, status: 'nothing_to_fix', final: testCounts(run.baseline.report) };
}
