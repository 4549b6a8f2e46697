// Compact views of gate results for the RunResult (counts, a gate's summary, per-test outcomes): the
// contract's own shapes, computed wherever a gate ran (the loop, the verification), not a report.
import type { GateResult } from './gate-result.ts';
import type { TestReport } from './test-report.ts';
import type { GateSummary, TestCounts, TestOutcome } from './run-result.ts';

export function testCounts(report: TestReport): TestCounts {
  return {
    passed: report.passed,
    failed: report.failed,
    skipped: report.skipped,
    total: report.total,
    parsed: report.parsed,
    format: report.format,
    ...(report.witness !== undefined ? { witness: report.witness } : {}),
    ...(report.view !== undefined ? { view: report.view } : {}),
  };
}

export function gateSummary(gate: GateResult): GateSummary {
  const summary: GateSummary = { passed: gate.passed, counts: testCounts(gate.report), durationMs: gate.durationMs };
  if (!gate.passed) {
    summary.reason = gate.reason;
    if (gate.exitCode !== undefined) summary.exitCode = gate.exitCode;
  }
  return summary;
}

const MAX_MESSAGE = 500;

export function testOutcomes(report: TestReport, only?: TestOutcome['status']): TestOutcome[] {
  return report.tests
    .filter((t) => only === undefined || t.status === only)
    .map((t) => {
      const outcome: TestOutcome = { id: t.id, status: t.status };
      if (t.message) outcome.message = t.message.length > MAX_MESSAGE ? `${t.message.slice(0, MAX_MESSAGE)}…` : t.message;
      if (t.expected !== undefined && t.actual !== undefined) Object.assign(outcome, { expected: t.expected, actual: t.actual });
      return outcome;
    });
}

/** Failing count of a gate: parsed count when known; 1 for an unparsed failure, 0 for a pass. */
export function failingCount(gate: GateResult): number {
  if (gate.report.parsed) return gate.report.failed;
  return gate.passed ? 0 : 1;
}
