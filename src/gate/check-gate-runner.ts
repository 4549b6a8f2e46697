// A check run's gate as an engine can run it in its own copy of the workspace (the `repair` engine's
// candidates, an agent's test tool): the checks, then the tests, composed as the loop composes them
// (check-gate.ts). Engines never run the authoritative gate; this is the same gate, on their copy.
import type { GateResult } from '../core/gate-result.ts';
import type { RepoConfig } from '../core/repo-config.ts';
import type { Mount, Sandbox } from '../sandbox/sandbox.ts';
import { checkGate } from './check-gate.ts';
import { runChecks } from './run-checks.ts';
import { runGate } from './run-gate.ts';

export interface CheckGateRunOptions {
  timeoutMs: number;
  mounts?: Mount[];
  tmpDir?: string;
  signal?: AbortSignal;
  /** Run the tests even when a check still fails (default: only once every check passes; until then the suite counts as at the baseline). */
  alwaysTests?: boolean;
}

export interface CheckGateRunner {
  readonly commands: readonly string[];
  run(cwd: string, options: CheckGateRunOptions): Promise<GateResult>;
}

export interface CheckGateRunnerInput {
  sandbox: Sandbox;
  config: RepoConfig;
  /** The suite's gate at the baseline: what it may still fail. */
  baseline: GateResult;
  testCommand: string;
}

export function createCheckGateRunner(input: CheckGateRunnerInput): CheckGateRunner {
  const { sandbox, config, baseline, testCommand } = input;
  return {
    commands: config.checks,
    async run(cwd, options) {
      const where = {
        cwd,
        timeoutMs: options.timeoutMs,
        env: config.env,
        ...(options.mounts ? { mounts: options.mounts } : {}),
        ...(options.tmpDir ? { tmpDir: options.tmpDir } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      };
      const checks = await runChecks(sandbox, { ...where, commands: config.checks });
      const suite =
        checks.every((c) => c.passed) || options.alwaysTests
          ? await runGate(sandbox, {
              ...where,
              command: testCommand,
              ...(config.test.report ? { reportFile: config.test.report } : {}),
            })
          : baseline;
      return checkGate({ checks, suite, baseline, suiteCommand: testCommand });
    },
  };
}
