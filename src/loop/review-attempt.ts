// Runs the reviewer on a verified green attempt and records its verdict for the report.
import type { GateResult } from '../core/gate-result.ts';
import type { ReviewRecord, Verification } from '../core/run-result.ts';
import { testCounts } from '../core/gate-summary.ts';
import type { Reviewer } from '../core/reviewer.ts';

export interface ReviewAttemptInput {
  goal: string;
  remainingTasks: string[];
  diff: string;
  gate: GateResult;
  verification: Verification;
  signal: AbortSignal;
  deadline: number;
  log: (line: string) => void;
}

export async function reviewAttempt(reviewer: Reviewer, input: ReviewAttemptInput): Promise<ReviewRecord> {
  const outcome = await reviewer.review({
    goal: input.goal,
    remainingTasks: input.remainingTasks,
    diff: input.diff,
    report: reviewReport(input.gate, input.verification),
    signal: input.signal,
    deadline: input.deadline,
    log: input.log,
  });
  input.log(
    `review: ${outcome.status}${outcome.remainingTasks.length > 0 ? `: ${outcome.remainingTasks.join('; ')}` : ''}${outcome.reason ? ` (${outcome.reason})` : ''}`,
  );
  return {
    reviewer: reviewer.name,
    status: outcome.status,
    remainingTasks: outcome.remainingTasks,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    cost: outcome.cost,
    ...(outcome.budgetStop ? { budgetStop: outcome.budgetStop } : {}),
  };
}

function reviewReport(gate: GateResult, v: Verification): string {
  const counts = testCounts(gate.report);
  const list = (ids: string[]) => (ids.length > 0 ? ids.slice(0, 30).join(', ') : 'none');
  return [
    `- Full suite in the workspace: ${counts.parsed ? `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped` : 'passed (per-test results unknown)'}`,
    `- Replayed on a pristine checkout: ${v.replayed ? (v.gate?.passed || v.passed ? 'green' : 'failing') : 'no'}`,
    `- Fail → pass: ${list(v.failToPass)}`,
    `- Pass → fail: ${list(v.passToFail)}`,
    `- Constraints and test integrity: ${v.findings.length === 0 ? 'held' : v.findings.map((f) => f.message).join('; ')}`,
  ].join('\n');
}
