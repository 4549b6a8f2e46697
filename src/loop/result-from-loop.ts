// The loop's outcome as the run's result: the status (green, escalated for a person, or out of
// budget), the attempts of both phases, the cost, and the red → green proof.
import type { RedProof, RunResult, RunStatus, StopReason, Verification } from '../core/run-result.ts';
import { testCounts } from '../core/gate-summary.ts';
import type { FixLoopOutcome } from './fix-loop.ts';
import type { RedPhaseOutcome, RedProofState } from './red-phase.ts';

export function resultFromLoop(base: RunResult, outcome: FixLoopOutcome, red: RedPhaseOutcome | null): RunResult {
  const last = outcome.attempts.at(-1);
  const status: RunStatus = outcome.green ? 'tests_green' : escalates(outcome.stopReason) ? 'escalated' : 'failed_to_green';
  const result: RunResult = {
    ...base,
    status,
    engine: outcome.engine,
    attempts: [...(red?.attempts ?? []), ...outcome.attempts],
    patch: outcome.green ? outcome.patch : '',
    filesChanged: outcome.green && last ? last.changes : [],
    final: outcome.verification?.gate?.counts ?? testCounts(outcome.lastGate.report),
    verification: outcome.verification,
    cost: { usd: outcome.cost.usd + (red?.cost.usd ?? 0), tokens: outcome.cost.tokens + (red?.cost.tokens ?? 0) },
  };
  if (red?.proof) result.redGreen = redProof(red.proof, outcome.verification);
  if (outcome.stopReason) {
    result.stopReason = outcome.stopReason;
    result.events.push({ at: new Date().toISOString(), kind: 'stop', message: outcome.explanation });
  }
  return result;
}

function redProof(proof: RedProofState, verification: Verification | null): RedProof {
  const after = verification?.replayed
    ? proof.failedBefore.map((t) => ({
        id: t.id,
        status: verification.failToPass.includes(t.id) ? ('passed' as const) : ('failed' as const),
      }))
    : null;
  return { failedBefore: proof.failedBefore, after, testFiles: [...proof.testFiles.files.keys()].sort() };
}

/** Stops that need a person: the loop saw no way forward, as opposed to running out of budget. */
function escalates(reason: StopReason | null): boolean {
  return reason === 'no_progress' || reason === 'consecutive_failures' || reason === 'engines_exhausted';
}
