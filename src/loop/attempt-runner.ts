// One attempt, the same in both phases (the red phase that writes a failing test first, and the fix
// loop): the engine's context, the engine's call with its failure contained, the cost added up, the
// changes and their constraints, the gate, the attempt's record and its artifacts. The phases keep
// only their own policy (where an attempt starts, what its gate means, when to stop).
import type { Cost } from '../core/cost.ts';
import type { Finding } from '../core/findings.ts';
import type { FileChange } from '../core/file-change.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { RepoConfig } from '../core/repo-config.ts';
import type { AttemptRecord, ReviewRecord, TestOutcome } from '../core/run-result.ts';
import type { AttemptMode, Engine, EngineOutcome, LocalizationHint, PreviousAttempt } from '../engines/engine.ts';
import { EngineError } from '../engines/engine-error.ts';
import { gateSummary } from '../core/gate-summary.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { CheckGateRunner } from '../gate/check-gate-runner.ts';
import type { Snapshot, Workspace } from '../workspace/workspace.ts';
import type { Artifacts } from './artifacts.ts';
import { AttemptLog } from './attempt-log.ts';
import { candidateWords, type ProgressListener } from './progress.ts';

/** What every attempt of a run shares, whichever phase it belongs to. */
export interface AttemptShared {
  sandbox: Sandbox;
  config: RepoConfig;
  goal: string;
  instructions?: string;
  hints: LocalizationHint[];
  signal: AbortSignal;
  /** Epoch milliseconds when the run's time budget ends. */
  deadline: number;
  artifacts: Artifacts;
  onProgress: ProgressListener;
  /** A check run's gate, as the engines may run it in their copies (AttemptContext.checks). */
  checks?: CheckGateRunner;
  /** The run's flaky tests, growing as the run finds more (AttemptContext.flaky). */
  flaky?: ReadonlySet<string>;
}

/** One attempt's own inputs. */
export interface AttemptStart {
  n: number;
  engine: Engine;
  mode: AttemptMode;
  /** The workspace under the phase's path policy. */
  workspace: Workspace;
  baseline: GateResult;
  /** The gate of the state this attempt starts from (its failing tests are the target). */
  lastGate: GateResult;
  previous: readonly PreviousAttempt[];
  remainingTasks: readonly string[];
}

/** The attempt's log, streamed to the live progress as it grows (an agent's output as it works). */
export function attemptLog(shared: AttemptShared, n: number): AttemptLog {
  return new AttemptLog((line) =>
    shared.onProgress({ phase: 'engine', attempt: n, maxAttempts: shared.config.loop.maxAttempts, message: line }),
  );
}

/** What a phase decides about its attempts' edits. */
export interface AttemptChecks {
  /** Findings on the engine's changes under the phase's policy; any finding rejects the attempt before the gate. */
  check(changes: FileChange[]): Promise<Finding[]>;
  /** Runs the authoritative gate in the workspace. */
  runGate(log: AttemptLog): Promise<GateResult>;
  /** Whether an attempt that changed nothing still meets the gate. */
  gateUnchanged: boolean;
  /** The phase's running total, to which the engine's cost is added. */
  cost: Cost;
}

/** An attempt's edits as the gate judged them; the phase decides what they mean. */
export interface EditedAttempt {
  /** The workspace before the engine's edits, to revert them. */
  before: Snapshot;
  outcome: EngineOutcome;
  /** The engine's changes, as checked (before the gate ran). */
  changes: FileChange[];
  findings: Finding[];
  /** Null when the changes were rejected, or when nothing changed and the phase does not gate that. */
  gate: GateResult | null;
  /** The diff after the gate. */
  patch: string;
}

/** The engine's edits, checked, then gated when the checks found nothing. */
export async function runAttempt(
  shared: AttemptShared,
  start: AttemptStart,
  checks: AttemptChecks,
  log: AttemptLog,
): Promise<EditedAttempt> {
  const { workspace } = start;
  const before = await workspace.snapshot();
  const outcome = await proposeEdits(shared, start, log);
  addCost(checks.cost, outcome.cost);
  const changes = await workspace.changes();
  const findings = await checks.check(changes);
  // An engine that goes on in the next attempt and changed nothing leaves the last gate standing.
  const unchangedGated = checks.gateUnchanged && !outcome.continues;
  const gate = findings.length === 0 && (changes.length > 0 || unchangedGated) ? await checks.runGate(log) : null;
  return { before, outcome, changes, findings, gate, patch: await workspace.diff() };
}

/**
 * The engine's edits. An engine that fails is an attempt that gave up (the cascade moves on); a
 * misconfigured engine stops the run, since no later attempt would do better.
 */
async function proposeEdits(shared: AttemptShared, start: AttemptStart, log: AttemptLog): Promise<EngineOutcome> {
  try {
    return await start.engine.attempt({
      attempt: start.n,
      maxAttempts: shared.config.loop.maxAttempts,
      workspace: start.workspace,
      sandbox: shared.sandbox,
      config: shared.config,
      goal: shared.goal,
      ...(shared.instructions !== undefined ? { instructions: shared.instructions } : {}),
      ...(shared.checks ? { checks: shared.checks } : {}),
      ...(shared.flaky ? { flaky: shared.flaky } : {}),
      lastGate: start.lastGate,
      baseline: start.baseline,
      previousAttempts: [...start.previous],
      hints: shared.hints,
      mode: start.mode,
      remainingTasks: [...start.remainingTasks],
      signal: shared.signal,
      deadline: shared.deadline,
      log: log.add,
      countCandidates: (count) =>
        shared.onProgress({
          phase: 'engine',
          attempt: start.n,
          maxAttempts: shared.config.loop.maxAttempts,
          message: candidateWords(count),
          candidates: count,
        }),
    });
  } catch (error) {
    if (error instanceof EngineError && error.code !== 'ENGINE_FAILED') throw error;
    const message = error instanceof Error ? error.message : String(error);
    log.add(`engine ${start.engine.name} failed: ${message}`);
    return { summary: `engine failed: ${message}`, cost: { usd: 0, tokens: 0 }, gaveUp: true };
  }
}

export function addCost(total: Cost, cost: Cost): void {
  total.usd += cost.usd;
  total.tokens += cost.tokens;
}

export interface AttemptResult {
  startedFrom: AttemptRecord['startedFrom'];
  outcome: EngineOutcome;
  changes: FileChange[];
  findings: Finding[];
  gate: GateResult | null;
  fingerprint: string | null;
  failingTests: TestOutcome[];
  review?: ReviewRecord;
  /** Epoch milliseconds when the attempt started. */
  started: number;
}

/** Writes the attempt's diff and log, and returns its record for the report. */
export async function recordAttempt(
  shared: AttemptShared,
  start: AttemptStart,
  result: AttemptResult,
  patch: string,
  log: AttemptLog,
): Promise<AttemptRecord> {
  const { outcome } = result;
  const record: AttemptRecord = {
    attempt: start.n,
    phase: start.mode,
    engine: start.engine.name,
    summary: outcome.summary,
    startedFrom: result.startedFrom,
    changes: result.changes,
    findings: result.findings,
    gate: result.gate ? gateSummary(result.gate) : null,
    fingerprint: result.fingerprint,
    failingTests: result.failingTests,
    cost: outcome.cost,
    engineStats: outcome.stats ?? {},
    notes: outcome.notes ?? [],
    ...(outcome.budgetStop ? { budgetStop: outcome.budgetStop } : {}),
    ...(outcome.continues && !result.gate && result.findings.length === 0 ? { continues: true } : {}),
    ...(result.review ? { review: result.review } : {}),
    durationMs: Date.now() - result.started,
    diffPath: shared.artifacts.attemptDiffPath(start.n),
    logPath: shared.artifacts.attemptLogPath(start.n),
  };
  await shared.artifacts.writeAttempt(start.n, patch, log.text());
  return record;
}
