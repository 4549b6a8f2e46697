import type { CheckRun } from './check-result.ts';
import type { TestReport } from './test-report.ts';

export type GateFailureReason = 'NON_ZERO_EXIT' | 'PROCESS_KILLED' | 'TIMEOUT';

interface GateCommon {
  report: TestReport;
  /** The command's combined output, capped (see CommandResult.truncatedBytes). */
  output: string;
  durationMs: number;
  /**
   * The checks a check run's gate ran beside the suite (src/gate/check-gate.ts), whose diagnostics are
   * then the report's failing tests: absent when the gate is the suite alone.
   */
  checks?: CheckRun[];
}

/** The binary gate (docs/design.md §2): exit code 0 passes, anything else or a killed process fails. */
export type GateResult =
  (GateCommon & { passed: true }) | (GateCommon & { passed: false; reason: GateFailureReason; exitCode?: number });
