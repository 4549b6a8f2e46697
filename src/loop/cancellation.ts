// A run cancelled in any phase ends as cancelled: `failed_to_green` with `stopReason: 'cancelled'`
// and the phase it was in (docs/design.md §2, RunResult). Aborting the run's signal kills the commands
// it is running; what those killed commands look like afterwards (a setup that "failed" with
// SIGTERM, a gate that failed, an engine that gave up, a replay that did not hold) must not become
// the run's outcome. The phase is the one the run was in when the signal came, not the one it
// reached while unwinding.
import type { Cancellation, RunPhase, RunResult } from '../core/run-result.ts';
import type { RunProgress } from './progress.ts';

export interface CancellationTracker {
  /** Told every progress event, to know the phase the run is in. */
  saw(progress: RunProgress): void;
  /** Where the run was when its signal was aborted; null while it is not. */
  cancellation(): Cancellation | null;
}

export function trackCancellation(signal: AbortSignal | undefined): CancellationTracker {
  let current: Cancellation = { phase: 'clone' };
  let stoppedAt: Cancellation | null = null;
  const stop = () => (stoppedAt ??= { ...current });
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop, { once: true });
  return {
    saw(progress) {
      const phase = runPhase(progress);
      if (phase) current = { phase, ...(progress.attempt !== undefined ? { attempt: progress.attempt } : {}) };
    },
    cancellation: () => stoppedAt,
  };
}

/** The phase a progress event says the run is in (null: an engine's line, the end). */
function runPhase(progress: RunProgress): RunPhase | null {
  return progress.phase === 'engine' || progress.phase === 'done' ? null : progress.phase;
}

/**
 * The result of a run cancelled at `where`: the attempts and the baseline so far are kept (they are
 * in the artifacts too); no error, and no assessment, which was cut short if it ran at all.
 */
export function cancelledResult(judged: RunResult, where: Cancellation): RunResult {
  const result: RunResult = { ...judged, status: 'failed_to_green', stopReason: 'cancelled', cancelled: where };
  delete result.error;
  delete result.assessment;
  return result;
}

/** "during setup", "in attempt 2": where a run was cancelled, for its headline. */
export function cancelledWhere(where: Cancellation | undefined): string {
  if (!where) return '';
  const attempt = where.attempt !== undefined ? ` ${where.attempt}` : '';
  switch (where.phase) {
    case 'clone':
      return 'while cloning the repository';
    case 'setup':
      return 'during the setup';
    case 'baseline':
      return 'during the baseline';
    case 'write-test':
      return 'while writing a failing test';
    case 'attempt':
      return `in attempt${attempt}`;
    case 'verify':
      return where.attempt !== undefined
        ? `while replaying attempt${attempt} on a pristine checkout`
        : 'while replaying the patch on a pristine checkout';
    case 'assess':
      return 'during the assessment';
  }
}
