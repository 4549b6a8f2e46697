// The fix loop (docs/design.md §1.6): bounded attempts, judged only by the test suite.
// Stops on the first green gate that also passes verification; stops early when there is no
// progress (the same failure twice, or N failed gates in a row without improvement).
import type { Cost } from '../core/cost.ts';
import type { Finding } from '../core/findings.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { AttemptRecord, ReviewRecord, StopReason, Verification } from '../core/run-result.ts';
import type { AlternativeCandidate, Engine, EngineOutcome } from '../engines/engine.ts';
import { failingCount } from '../core/gate-summary.ts';
import { runFixAttempt, type FixAttempt } from './fix-attempt.ts';
import type { FixLoopInput, LoopState } from './loop-state.ts';

export type { FixLoopInput } from './loop-state.ts';

export interface FixLoopOutcome {
  green: boolean;
  stopReason: StopReason | null;
  /** Why the loop stopped, in words. */
  explanation: string;
  attempts: AttemptRecord[];
  /** Engine whose attempt produced the green patch. */
  engine: string | null;
  patch: string;
  verification: Verification | null;
  lastGate: GateResult;
  cost: Cost;
  /** What the green attempt's engine chose among the candidates that passed (the `repair` engine's exploration). */
  chosen?: NonNullable<EngineOutcome['chosen']>;
  /** The other candidates that passed in the green attempt, as whole patches against the pristine commit. */
  alternatives: AlternativeCandidate[];
}

export async function runFixLoop(input: FixLoopInput): Promise<FixLoopOutcome> {
  const { config } = input;
  const state: LoopState = {
    attempts: [],
    previous: [...(input.previousAttempts ?? [])],
    remainingTasks: [],
    cost: { usd: 0, tokens: 0 },
    best: { snapshot: await input.workspace.snapshot(), failing: failingCount(input.baseline), gate: input.baseline },
    currentGate: input.baseline,
    engineIndex: 0,
    consecutiveFailures: 0,
    lastBrokeMore: false,
    seenFingerprints: new Map(),
    lastVerification: null,
  };
  const maxAttempts = config.loop.maxAttempts;
  for (let n = input.firstAttempt ?? 1; n <= maxAttempts; n++) {
    if (input.signal.aborted) return stopped(state, 'cancelled', 'the run was cancelled');
    if (Date.now() >= input.deadline)
      return stopped(state, 'time_budget', `the time budget of ${config.loop.timeBudget} s was spent`);
    const engine = input.engines[state.engineIndex];
    if (!engine) return stopped(state, 'engines_exhausted', 'every engine gave up');
    const attempt = await runFixAttempt(input, state, n, engine);
    if (attempt.accepted && attempt.gate && attempt.verification) {
      input.onProgress({ phase: 'attempt', attempt: n, maxAttempts, failing: 0, message: `attempt ${n}: verified green` });
      const { chosen, alternatives = [] } = attempt.outcome;
      return {
        green: true,
        stopReason: null,
        explanation: 'verified',
        attempts: state.attempts,
        engine: engine.name,
        patch: attempt.patch,
        verification: attempt.verification,
        lastGate: attempt.gate,
        cost: state.cost,
        ...(chosen ? { chosen } : {}),
        alternatives,
      };
    }
    const stop = await afterFailedAttempt(input, state, n, engine, attempt);
    if (stop) return stop;
  }
  return stopped(state, 'max_attempts', `all ${maxAttempts} attempts were used`);
}

function stopped(state: LoopState, stopReason: StopReason, explanation: string): FixLoopOutcome {
  return {
    green: false,
    stopReason,
    explanation,
    attempts: state.attempts,
    engine: null,
    patch: '',
    verification: state.lastVerification,
    lastGate: state.currentGate,
    cost: state.cost,
    alternatives: [],
  };
}

/** Progress, the best state, and whether the engine is stuck, gave up or ran out of budget. */
async function afterFailedAttempt(
  input: FixLoopInput,
  state: LoopState,
  n: number,
  engine: Engine,
  attempt: FixAttempt,
): Promise<FixLoopOutcome | null> {
  const { gate, findings, review, fingerprint, outcome } = attempt;
  const maxAttempts = input.config.loop.maxAttempts;
  // The engine's own attempt budget ran out with work left and nothing changed: not a failed attempt.
  if (outcome.continues && !gate && findings.length === 0) return continued(input, state, n, engine, attempt);
  const failing = gate ? failingCount(gate) : Number.POSITIVE_INFINITY;
  const verdict = review ? describeReview(n, maxAttempts, review) : describeFailure(n, maxAttempts, gate, findings);
  state.previous.push({
    attempt: n,
    engine: engine.name,
    summary: outcome.summary,
    gatePassed: gate?.passed ?? false,
    failed: gate ? failing : -1,
    fingerprint,
    verdict,
  });
  input.onProgress({
    phase: 'attempt',
    attempt: n,
    maxAttempts,
    failing: gate ? failing : failingCount(state.currentGate),
    message: verdict,
  });

  // Progress (fewer failing tests than the best so far) resets the consecutive-failure count.
  if (gate && findings.length === 0 && failing < state.best.failing) {
    state.best = { snapshot: await input.workspace.snapshot(), failing, gate };
    state.consecutiveFailures = 0;
  } else {
    state.consecutiveFailures++;
  }
  state.lastBrokeMore = gate !== null && failing > failingCount(input.baseline);

  const seenAt = fingerprint ? state.seenFingerprints.get(fingerprint) : undefined;
  if (fingerprint && seenAt === undefined) state.seenFingerprints.set(fingerprint, n);
  const stuck = seenAt !== undefined;
  // A budget that ran out ends this engine for the run (budgets hold for the whole run).
  const budgetStop = outcome.budgetStop ?? review?.budgetStop;
  if (stuck || outcome.gaveUp || budgetStop) {
    const why = budgetStop
      ? `engine ${engine.name} stopped: ${budgetStop.message}`
      : stuck
        ? `attempt ${n} failed the same way as attempt ${seenAt}`
        : `engine ${engine.name} gave up: ${outcome.summary}`;
    if (moveToNextEngine(input, state, attempt, why)) return null;
    if (budgetStop) return stopped(state, 'budget', why);
    // An engine that stops because the run's time is up has not given up: the time budget ended it.
    if (!stuck && Date.now() >= input.deadline)
      return stopped(state, 'time_budget', `the time budget of ${input.config.loop.timeBudget} s was spent (${why})`);
    return stuck ? stopped(state, 'no_progress', `no progress: ${why}`) : stopped(state, 'engines_exhausted', why);
  }
  if (state.consecutiveFailures >= input.config.loop.maxConsecutiveFailures) {
    return stopped(state, 'consecutive_failures', `${state.consecutiveFailures} failed gates in a row without progress`);
  }
  return null;
}

/**
 * An attempt the engine will go on with: it counts against the attempts and the time, but neither
 * as a failure nor as a repeat. When another engine follows in the cascade, that one gets the
 * remaining attempts instead (the cheap engine has had its budget).
 */
function continued(input: FixLoopInput, state: LoopState, n: number, engine: Engine, attempt: FixAttempt): null {
  const maxAttempts = input.config.loop.maxAttempts;
  const failing = failingCount(state.currentGate);
  const verdict = `attempt ${n}/${maxAttempts}: ${engine.name} goes on in the next attempt (${attempt.outcome.summary})`;
  state.previous.push({
    attempt: n,
    engine: engine.name,
    summary: attempt.outcome.summary,
    gatePassed: false,
    failed: failing,
    fingerprint: null,
    verdict,
  });
  input.onProgress({ phase: 'attempt', attempt: n, maxAttempts, failing, message: verdict });
  moveToNextEngine(input, state, attempt, `engine ${engine.name} used its attempt's budget`);
  return null;
}

/** The cascade's next engine, with a fresh count of failures and repeats; false when there is none. */
function moveToNextEngine(input: FixLoopInput, state: LoopState, attempt: FixAttempt, why: string): boolean {
  const next = input.engines[state.engineIndex + 1];
  if (!next) return false;
  state.engineIndex++;
  state.seenFingerprints = new Map();
  state.consecutiveFailures = 0;
  attempt.log.add(`${why}; moving on to engine ${next.name}`);
  return true;
}

function describeReview(n: number, max: number, review: ReviewRecord): string {
  if (review.status === 'ok') return `attempt ${n}/${max}: verified and reviewed`;
  if (review.status === 'missing')
    return `attempt ${n}/${max}: green, but the reviewer says it is missing: ${review.remainingTasks.join('; ')}`;
  return `attempt ${n}/${max}: green, but the review failed (${review.reason ?? 'invalid answer'})`;
}

function describeFailure(n: number, max: number, gate: GateResult | null, findings: Finding[]): string {
  if (findings.length > 0) return `attempt ${n}/${max}: rejected (${findings[0]?.message ?? 'constraint'})`;
  if (!gate) return `attempt ${n}/${max}: no gate`;
  return `attempt ${n}/${max}: ${failingCount(gate)} failing`;
}
