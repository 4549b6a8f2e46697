// The fix loop (DESIGN.md §1.6): bounded attempts, judged only by the test suite.
// Stops on the first green gate that also passes verification; stops early when there is no
// progress (the same failure twice, or N failed gates in a row without improvement).
import type { RepoConfig } from '../core/repo-config.ts';
import type { Engine, EngineOutcome, LocalizationHint, PreviousAttempt } from '../engines/engine.ts';
import type { Cost } from '../core/cost.ts';
import { EngineError } from '../engines/engine-error.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { AttemptRecord, ReviewRecord, StopReason, Verification } from '../core/run-result.ts';
import type { Finding } from '../core/findings.ts';
import { failingCount, gateSummary, testOutcomes } from '../report/summarize.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { Snapshot, Workspace } from '../workspace/workspace.ts';
import type { Artifacts } from './artifacts.ts';
import { AttemptLog } from './attempt-log.ts';
import { failureFingerprint } from './fingerprint.ts';
import type { ProgressListener } from './progress.ts';
import { reviewAttempt } from './review-attempt.ts';
import type { Reviewer } from '../core/reviewer.ts';
import { createHash } from 'node:crypto';

export interface FixLoopInput {
  workspace: Workspace;
  sandbox: Sandbox;
  config: RepoConfig;
  engines: Engine[];
  baseline: GateResult;
  goal: string;
  instructions?: string;
  hints: LocalizationHint[];
  signal: AbortSignal;
  /** Epoch milliseconds when the run's time budget ends. */
  deadline: number;
  /** Constraint findings for the workspace's current changes; any finding rejects the attempt. */
  checkChanges: () => Promise<Finding[]>;
  /** Runs the authoritative gate in the workspace. */
  runGate: (log: AttemptLog) => Promise<GateResult>;
  /** Replays the patch on a pristine checkout and checks it. */
  verify: (patch: string, log: AttemptLog) => Promise<Verification>;
  artifacts: Artifacts;
  onProgress: ProgressListener;
  /** Directories whose paths vary between runs, blanked out of fingerprints. */
  volatileRoots: string[];
  /** Reads a verified green attempt; only its `ok` makes the run green. */
  reviewer?: Reviewer | null;
  /** Number of the first attempt (attempts of an earlier phase count against the same maximum). */
  firstAttempt?: number;
  /** Attempts of an earlier phase, shown to the engines. */
  previousAttempts?: PreviousAttempt[];
}

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
}

interface BestState {
  snapshot: Snapshot;
  failing: number;
  gate: GateResult;
}

export async function runFixLoop(input: FixLoopInput): Promise<FixLoopOutcome> {
  const { workspace, config, engines, baseline } = input;
  const maxAttempts = config.loop.maxAttempts;
  const attempts: AttemptRecord[] = [];
  const previous: PreviousAttempt[] = [...(input.previousAttempts ?? [])];
  let remainingTasks: string[] = [];
  const cost: Cost = { usd: 0, tokens: 0 };
  const baselineFailing = failingCount(baseline);
  let best: BestState = { snapshot: await workspace.snapshot(), failing: baselineFailing, gate: baseline };
  let currentGate = baseline;
  let engineIndex = 0;
  let consecutiveFailures = 0;
  let lastBrokeMore = false;
  // Fingerprints seen per engine: a repeat means that engine is stuck.
  let seenFingerprints = new Map<string, number>();
  let lastVerification: Verification | null = null;

  const stop = (stopReason: StopReason, explanation: string): FixLoopOutcome => ({
    green: false,
    stopReason,
    explanation,
    attempts,
    engine: null,
    patch: '',
    verification: lastVerification,
    lastGate: currentGate,
    cost,
  });

  for (let n = input.firstAttempt ?? 1; n <= maxAttempts; n++) {
    if (input.signal.aborted) return stop('cancelled', 'the run was cancelled');
    if (Date.now() >= input.deadline) return stop('time_budget', `the time budget of ${config.loop.timeBudget} s was spent`);
    const engine = engines[engineIndex];
    if (!engine) return stop('engines_exhausted', 'every engine gave up');

    const started = Date.now();
    // Everything the attempt logs is streamed to the live progress too (an agent's output as it works).
    const log = new AttemptLog((line) => input.onProgress({ phase: 'engine', attempt: n, maxAttempts, message: line }));
    let startedFrom: AttemptRecord['startedFrom'] = n === (input.firstAttempt ?? 1) ? 'baseline' : 'previous';
    if (lastBrokeMore) {
      await workspace.restore(best.snapshot);
      currentGate = best.gate;
      startedFrom = 'best';
      log.add(`The previous attempt broke more tests than the baseline had failing (${baselineFailing}); starting from the best state so far (${best.failing} failing).`);
    }
    const startSnapshot = await workspace.snapshot();
    input.onProgress({ phase: 'attempt', attempt: n, maxAttempts, failing: failingCount(currentGate), message: `attempt ${n}/${maxAttempts} (${engine.name}): ${failingCount(currentGate)} failing` });
    log.add(`attempt ${n}/${maxAttempts} with engine ${engine.name}, starting from ${startedFrom}`);

    let outcome: EngineOutcome;
    try {
      outcome = await engine.attempt({
        attempt: n,
        maxAttempts,
        workspace,
        sandbox: input.sandbox,
        config,
        goal: input.goal,
        ...(input.instructions !== undefined ? { instructions: input.instructions } : {}),
        lastGate: currentGate,
        baseline,
        previousAttempts: [...previous],
        hints: input.hints,
        mode: 'fix',
        remainingTasks,
        signal: input.signal,
        deadline: input.deadline,
        log: log.add,
      });
    } catch (error) {
      if (error instanceof EngineError && error.code !== 'ENGINE_FAILED') throw error;
      const message = error instanceof Error ? error.message : String(error);
      log.add(`engine ${engine.name} failed: ${message}`);
      outcome = { summary: `engine failed: ${message}`, cost: { usd: 0, tokens: 0 }, gaveUp: true };
    }
    cost.usd += outcome.cost.usd;
    cost.tokens += outcome.cost.tokens;

    let findings = await input.checkChanges();
    let gate: GateResult | null = null;
    let verification: Verification | null = null;
    if (findings.length > 0) {
      log.add(`Rejected: ${findings.map((f) => f.message).join('; ')}. The attempt's changes were reverted.`);
    } else {
      gate = await input.runGate(log);
      currentGate = gate;
    }
    const patch = await workspace.diff();
    const changes = await workspace.changes();
    if (findings.length > 0) await workspace.restore(startSnapshot);

    if (gate?.passed) {
      input.onProgress({ phase: 'verify', attempt: n, maxAttempts, failing: 0, message: `attempt ${n}: tests pass; verifying on a pristine checkout` });
      verification = await input.verify(patch, log);
      lastVerification = verification;
      if (!verification.passed) findings = verification.findings;
    }

    let review: ReviewRecord | undefined;
    if (gate?.passed && verification?.passed && input.reviewer) {
      input.onProgress({ phase: 'verify', attempt: n, maxAttempts, failing: 0, message: `attempt ${n}: verified; the reviewer reads it` });
      review = await reviewAttempt(input.reviewer, { goal: input.goal, remainingTasks, diff: patch, gate, verification, signal: input.signal, deadline: input.deadline, log: log.add });
      cost.usd += review.cost.usd;
      cost.tokens += review.cost.tokens;
      if (review.status === 'missing') remainingTasks = review.remainingTasks;
    }
    const accepted = gate?.passed === true && verification?.passed === true && (review === undefined || review.status === 'ok');

    const fingerprint = findings.length > 0 ? findingsFingerprint(findings) : review && !accepted ? reviewFingerprint(review) : gate ? failureFingerprint(gate, input.volatileRoots) : null;
    const record: AttemptRecord = {
      attempt: n,
      phase: 'fix',
      engine: engine.name,
      summary: outcome.summary,
      startedFrom,
      changes,
      findings,
      gate: gate ? gateSummary(gate) : null,
      fingerprint,
      failingTests: gate ? testOutcomes(gate.report, 'failed') : [],
      cost: outcome.cost,
      engineStats: outcome.stats ?? {},
      notes: outcome.notes ?? [],
      ...(outcome.budgetStop ? { budgetStop: outcome.budgetStop } : {}),
      ...(review ? { review } : {}),
      durationMs: Date.now() - started,
      diffPath: input.artifacts.attemptDiffPath(n),
      logPath: input.artifacts.attemptLogPath(n),
    };
    attempts.push(record);
    await input.artifacts.writeAttempt(n, patch, log.text());

    if (accepted && gate && verification) {
      input.onProgress({ phase: 'attempt', attempt: n, maxAttempts, failing: 0, message: `attempt ${n}: verified green` });
      return { green: true, stopReason: null, explanation: 'verified', attempts, engine: engine.name, patch, verification, lastGate: gate, cost };
    }

    const failing = gate ? failingCount(gate) : Number.POSITIVE_INFINITY;
    const verdict = review ? describeReview(n, maxAttempts, review) : describeFailure(n, maxAttempts, gate, findings);
    previous.push({ attempt: n, engine: engine.name, summary: outcome.summary, gatePassed: gate?.passed ?? false, failed: gate ? failing : -1, fingerprint, verdict });
    input.onProgress({ phase: 'attempt', attempt: n, maxAttempts, failing: gate ? failing : failingCount(currentGate), message: verdict });

    // Progress (fewer failing tests than the best so far) resets the consecutive-failure count.
    if (gate && findings.length === 0 && failing < best.failing) {
      best = { snapshot: await workspace.snapshot(), failing, gate };
      consecutiveFailures = 0;
    } else {
      consecutiveFailures++;
    }
    lastBrokeMore = gate !== null && failing > baselineFailing;

    const seenAt = fingerprint ? seenFingerprints.get(fingerprint) : undefined;
    if (fingerprint && seenAt === undefined) seenFingerprints.set(fingerprint, n);
    const stuck = seenAt !== undefined;
    // A budget that ran out ends this engine for the run (budgets hold for the whole run).
    const budgetStop = outcome.budgetStop ?? review?.budgetStop;
    if (stuck || outcome.gaveUp || budgetStop) {
      const why = budgetStop
        ? `engine ${engine.name} stopped: ${budgetStop.message}`
        : stuck
          ? `attempt ${n} failed the same way as attempt ${seenAt}`
          : `engine ${engine.name} gave up: ${outcome.summary}`;
      if (engineIndex + 1 < engines.length) {
        engineIndex++;
        seenFingerprints = new Map();
        consecutiveFailures = 0;
        log.add(`${why}; moving on to engine ${engines[engineIndex]?.name}`);
        continue;
      }
      if (budgetStop) return stop('budget', why);
      return stuck ? stop('no_progress', `no progress: ${why}`) : stop('engines_exhausted', why);
    }
    if (consecutiveFailures >= config.loop.maxConsecutiveFailures) {
      return stop('consecutive_failures', `${consecutiveFailures} failed gates in a row without progress`);
    }
  }
  return stop('max_attempts', `all ${maxAttempts} attempts were used`);
}

function findingsFingerprint(findings: Finding[]): string {
  const basis = findings.map((f) => `${f.kind}:${f.path ?? ''}`).sort().join('\n');
  return `c-${createHash('sha256').update(basis).digest('hex').slice(0, 14)}`;
}

function reviewFingerprint(review: ReviewRecord): string {
  const basis = review.status === 'missing' ? review.remainingTasks.map((t) => t.toLowerCase().replace(/\s+/g, ' ').trim()).sort().join('\n') : 'invalid';
  return `r-${createHash('sha256').update(basis).digest('hex').slice(0, 14)}`;
}

function describeReview(n: number, max: number, review: ReviewRecord): string {
  if (review.status === 'ok') return `attempt ${n}/${max}: verified and reviewed`;
  if (review.status === 'missing') return `attempt ${n}/${max}: green, but the reviewer says it is missing: ${review.remainingTasks.join('; ')}`;
  return `attempt ${n}/${max}: green, but the review failed (${review.reason ?? 'invalid answer'})`;
}

function describeFailure(n: number, max: number, gate: GateResult | null, findings: Finding[]): string {
  if (findings.length > 0) return `attempt ${n}/${max}: rejected (${findings[0]?.message ?? 'constraint'})`;
  if (!gate) return `attempt ${n}/${max}: no gate`;
  return `attempt ${n}/${max}: ${failingCount(gate)} failing`;
}
