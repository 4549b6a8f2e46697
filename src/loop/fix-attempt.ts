// One attempt of the fix phase: where it starts (what the last attempt left, or the best state so
// far), the engine's edits, the constraints, the gate, the pristine replay of a green gate, and the
// reviewer's verdict on a verified one. Only all of them together accept it.
import { createHash } from 'node:crypto';
import type { Finding } from '../core/findings.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { AttemptRecord, ReviewRecord, Verification } from '../core/run-result.ts';
import type { Engine, EngineOutcome } from '../engines/engine.ts';
import { failingCount, testOutcomes } from '../core/gate-summary.ts';
import type { AttemptLog } from './attempt-log.ts';
import { addCost, attemptLog, recordAttempt, runAttempt, type AttemptStart } from './attempt-runner.ts';
import { failureFingerprint } from './fingerprint.ts';
import type { FixLoopInput, LoopState } from './loop-state.ts';
import { reviewAttempt } from './review-attempt.ts';

export interface FixAttempt {
  outcome: EngineOutcome;
  findings: Finding[];
  gate: GateResult | null;
  verification: Verification | null;
  review?: ReviewRecord;
  accepted: boolean;
  fingerprint: string | null;
  patch: string;
  log: AttemptLog;
}

export async function runFixAttempt(input: FixLoopInput, state: LoopState, n: number, engine: Engine): Promise<FixAttempt> {
  const { workspace } = input;
  const maxAttempts = input.config.loop.maxAttempts;
  const started = Date.now();
  const log = attemptLog(input, n);
  const startedFrom = await startingPoint(input, state, n, log);
  input.onProgress({
    phase: 'attempt',
    attempt: n,
    maxAttempts,
    failing: failingCount(state.currentGate),
    message: `attempt ${n}/${maxAttempts} (${engine.name}): ${failingCount(state.currentGate)} failing`,
  });
  log.add(`attempt ${n}/${maxAttempts} with engine ${engine.name}, starting from ${startedFrom}`);

  const start: AttemptStart = {
    n,
    engine,
    mode: 'fix',
    workspace,
    baseline: input.baseline,
    lastGate: state.currentGate,
    previous: state.previous,
    remainingTasks: state.remainingTasks,
  };
  const edited = await runAttempt(
    input,
    start,
    { check: input.checkChanges, runGate: input.runGate, gateUnchanged: true, cost: state.cost },
    log,
  );
  const { outcome, gate, patch } = edited;
  let findings = edited.findings;
  if (gate) state.currentGate = gate;
  // The record shows what the attempt leaves, files the tests wrote included, as its patch does.
  const changes = gate ? await workspace.changes() : edited.changes;
  if (findings.length > 0) {
    log.add(`Rejected: ${findings.map((f) => f.message).join('; ')}. The attempt's changes were reverted.`);
    await workspace.restore(edited.before);
  }

  let verification: Verification | null = null;
  if (gate?.passed) {
    input.onProgress({
      phase: 'verify',
      attempt: n,
      maxAttempts,
      failing: 0,
      message: `attempt ${n}: ${gate.checks ? 'the checks pass' : 'tests pass'}; verifying on a pristine checkout`,
    });
    verification = await input.verify(patch, log);
    state.lastVerification = verification;
    if (!verification.passed) findings = verification.findings;
  }
  const review =
    gate?.passed && verification?.passed ? await reviewVerified(input, state, n, patch, gate, verification, log) : undefined;
  const accepted = gate?.passed === true && verification?.passed === true && (review === undefined || review.status === 'ok');
  const fingerprint =
    findings.length > 0
      ? findingsFingerprint(findings)
      : review && !accepted
        ? reviewFingerprint(review)
        : gate
          ? failureFingerprint(gate, input.volatileRoots)
          : null;

  const record: AttemptRecord = await recordAttempt(
    input,
    start,
    {
      startedFrom,
      outcome,
      changes,
      findings,
      gate,
      fingerprint,
      failingTests: gate ? testOutcomes(gate.report, 'failed') : [],
      ...(review ? { review } : {}),
      started,
    },
    patch,
    log,
  );
  state.attempts.push(record);
  return { outcome, findings, gate, verification, ...(review ? { review } : {}), accepted, fingerprint, patch, log };
}

/** After an attempt that broke more tests than the baseline had failing, start from the best state. */
async function startingPoint(
  input: FixLoopInput,
  state: LoopState,
  n: number,
  log: AttemptLog,
): Promise<AttemptRecord['startedFrom']> {
  if (state.lastBrokeMore) {
    await input.workspace.restore(state.best.snapshot);
    state.currentGate = state.best.gate;
    log.add(
      `The previous attempt broke more tests than the baseline had failing (${failingCount(input.baseline)}); starting from the best state so far (${state.best.failing} failing).`,
    );
    return 'best';
  }
  return n === (input.firstAttempt ?? 1) ? 'baseline' : 'previous';
}

/** The reviewer's verdict on a verified green attempt; `missing` sends its tasks to the next attempt. */
async function reviewVerified(
  input: FixLoopInput,
  state: LoopState,
  n: number,
  patch: string,
  gate: GateResult,
  verification: Verification,
  log: AttemptLog,
): Promise<ReviewRecord | undefined> {
  if (!input.reviewer) return undefined;
  input.onProgress({
    phase: 'verify',
    attempt: n,
    maxAttempts: input.config.loop.maxAttempts,
    failing: 0,
    message: `attempt ${n}: verified; the reviewer reads it`,
  });
  const review = await reviewAttempt(input.reviewer, {
    goal: input.goal,
    remainingTasks: state.remainingTasks,
    diff: patch,
    gate,
    verification,
    signal: input.signal,
    deadline: input.deadline,
    log: log.add,
  });
  addCost(state.cost, review.cost);
  if (review.status === 'missing') state.remainingTasks = review.remainingTasks;
  return review;
}

function findingsFingerprint(findings: Finding[]): string {
  const basis = findings
    .map((f) => `${f.kind}:${f.path ?? ''}`)
    .sort()
    .join('\n');
  return `c-${createHash('sha256').update(basis).digest('hex').slice(0, 14)}`;
}

function reviewFingerprint(review: ReviewRecord): string {
  const basis =
    review.status === 'missing'
      ? review.remainingTasks
          .map((t) => t.toLowerCase().replace(/\s+/g, ' ').trim())
          .sort()
          .join('\n')
      : 'invalid';
  return `r-${createHash('sha256').update(basis).digest('hex').slice(0, 14)}`;
}
