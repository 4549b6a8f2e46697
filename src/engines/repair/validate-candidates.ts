// Validates candidates in parallel, each worker in its own copy of the workspace: the previously
// failing tests first (stop at the first failure), then the full suite. The winner is the first
// candidate *in rank order* that passes everything, so parallelism never changes the result. With an
// exploration time, validation goes on after the first plausible candidate (one that passes) for
// that long, collecting more of them for the engine to choose from (choose-plausible.ts); which
// candidate a worker takes next is validation-order.ts's.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GateResult } from '../../core/gate-result.ts';
import type { CandidateCount } from '../engine.ts';
import { runGate } from '../../gate/run-gate.ts';
import type { CheckGateRunner } from '../../gate/check-gate-runner.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import type { Workspace } from '../../workspace/workspace.ts';
import { linkedFolderMounts } from '../../workspace/tool-caches.ts';
import type { FocusedCommand } from './focused-command.ts';
import type { RankedCandidate } from './rank-candidates.ts';
import { onePassed, stillTaking, takeNext, type ValidationOrder } from './validation-order.ts';
import { failedOnlyOnFlaky } from './flaky-failures.ts';

export interface ValidationInput {
  candidates: RankedCandidate[];
  workspace: Workspace;
  sandbox: Sandbox;
  testCommand: string;
  /** Runs only the failing tests, and how many of them fail on the unchanged code; null to use the full suite directly. */
  focused: FocusedCommand | null;
  /** Ids of the tests failing before the candidates. */
  failingIds: Set<string>;
  failingCount: number;
  env: Record<string, string>;
  parallelism: number;
  runTimeoutMs: number;
  deadline: number;
  signal: AbortSignal;
  reportFile?: string;
  /**
   * A check run's gate (AttemptContext.checks): each candidate is validated by the checks, then the
   * tests once they pass, in place of the test command.
   */
  checkGate?: CheckGateRunner;
  /**
   * The run's flaky tests (AttemptContext.flaky) and how many more times a new failure runs: a suite
   * that fails only on flaky tests passes (flaky-failures.ts). Absent: every failure counts.
   */
  flaky?: { ids: ReadonlySet<string>; reruns: number };
  /** After each candidate: how many were validated, of how many, and how many passed. */
  onProgress?: (count: CandidateCount) => void;
  /** How long to go on taking candidates after the first plausible one (0 or unset: stop there). */
  exploreMs?: number;
  /** Most plausible candidates to collect (the first one included); 1 when unset. */
  maxPlausible?: number;
  /**
   * The other candidates at the place the first plausible one changed (those past the engine's cut
   * too): the exploration takes them first, however far down the order they are. The
   * tests are least likely to tell those apart from it (`.push('')` → `.unshift('')` against the
   * line deleted), and when they disagree the reviewer must see it.
   */
  rivalsOf?: (first: RankedCandidate) => RankedCandidate[];
}

export interface ValidationResult {
  winner: RankedCandidate | null;
  /** Every candidate that passed, in rank order, at most `maxPlausible` (the winner first). */
  plausible: RankedCandidate[];
  /** The best candidate that fixes some failing tests and breaks none, when none fixes all. */
  partial: { candidate: RankedCandidate; failing: number } | null;
  validated: number;
  testExecutions: number;
  stoppedBy: 'winner' | 'exhausted' | 'deadline' | 'aborted';
  /** The candidates no worker finished (in rank order): what a later attempt can go on with. */
  remaining: RankedCandidate[];
}

/** Where a candidate runs: a fork of the workspace (its root and the folders it links) and its kept /tmp. */
type ForkView = Pick<Workspace, 'root' | 'linkedFolders'> & { tmpDir: string };

const failedIds = (gate: GateResult) => new Set(gate.report.tests.filter((t) => t.status === 'failed').map((t) => t.id));
const failingOf = (gate: GateResult) => (gate.report.parsed ? gate.report.failed : gate.passed ? 0 : Number.POSITIVE_INFINITY);

/** The command that runs the failing tests that passed alone on the unchanged code, when they are all that failed. */
function onlyTestsThatPassedAlone(full: GateResult, focused: FocusedCommand | null): string | null {
  const alone = focused?.passedAlone;
  if (!alone || !full.report.parsed) return null;
  const failed = failedIds(full);
  const onlyThem = failed.size > 0 && failed.size === full.report.failed && [...failed].every((id) => alone.ids.includes(id));
  return onlyThem ? alone.command : null;
}

/** What the workers share besides the order they take candidates in: the best results and the counts. */
interface ValidationRun extends ValidationOrder {
  input: ValidationInput;
  /** Aborted by the caller's signal or at the deadline: every gate run and worker stops with it. */
  controller: AbortController;
  validated: number;
  testExecutions: number;
  finished: Set<number>;
  partial: ValidationResult['partial'];
}

export async function validateCandidates(input: ValidationInput): Promise<ValidationResult> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  input.signal.addEventListener('abort', abort, { once: true });
  const deadlineTimer = setTimeout(abort, Math.max(0, input.deadline - Date.now()));
  // The list grows by the rivals of the first plausible candidate: the caller's array is left as it is.
  const own: ValidationInput = { ...input, candidates: [...input.candidates] };
  const run: ValidationRun = {
    input: own,
    controller,
    next: 0,
    taken: new Set(),
    rivals: [],
    takenSinceFirst: 0,
    winnerIndex: Number.POSITIVE_INFINITY,
    validated: 0,
    testExecutions: 0,
    finished: new Set(),
    partial: null,
    passed: new Set(),
    exploreUntil: 0,
    started: Date.now(),
    exploreEnd: 0,
  };
  try {
    const workers = Math.max(1, Math.min(input.parallelism, input.candidates.length));
    await Promise.all(Array.from({ length: workers }, () => worker(run)));
  } finally {
    clearTimeout(deadlineTimer);
    input.signal.removeEventListener('abort', abort);
  }
  return outcome(run);
}

/** The test command in the fork, run once more when it timed out and time is left. */
async function gate(state: ValidationRun, command: string, fork: ForkView): Promise<GateResult> {
  const { input, controller } = state;
  const run = (limitMs: number) => {
    state.testExecutions++;
    const timeoutMs = Math.max(1000, Math.min(limitMs, input.deadline - Date.now()));
    // The fork links the workspace's installed dependencies: the sandbox must show them (read-only,
    // with their tools' cache folders as scratch).
    const mounts = linkedFolderMounts(fork.linkedFolders);
    if (input.checkGate)
      return input.checkGate.run(fork.root, { timeoutMs, mounts, tmpDir: fork.tmpDir, signal: controller.signal });
    const report = input.reportFile ? { reportFile: input.reportFile } : {};
    return runGate(input.sandbox, {
      command,
      cwd: fork.root,
      timeoutMs,
      env: input.env,
      mounts,
      tmpDir: fork.tmpDir,
      signal: controller.signal,
      ...report,
    });
  };
  const first = await run(input.runTimeoutMs);
  // On a loaded machine a right candidate can run out of time: a timeout is not a verdict until a
  // second, longer run confirms it (a looping mutant pays once more, within the same deadline).
  if (first.passed || first.reason !== 'TIMEOUT' || controller.signal.aborted || input.deadline - Date.now() < input.runTimeoutMs)
    return first;
  return run(input.runTimeoutMs * 3);
}

/** The full suite in the fork; returns whether it passed, and records a partial fix when it is one. */
async function fullSuite(run: ValidationRun, candidate: RankedCandidate, index: number, fork: ForkView): Promise<boolean> {
  const { input } = run;
  const full = await gate(run, input.testCommand, fork);
  if (full.passed) return true;
  if (
    input.flaky &&
    (await failedOnlyOnFlaky(full, {
      flaky: input.flaky.ids,
      reruns: input.flaky.reruns,
      testCommand: input.testCommand,
      failingIds: input.failingIds,
      cwd: fork.root,
      run: (command) => gate(run, command, fork),
      deadline: input.deadline,
      signal: run.controller.signal,
    }))
  )
    return true;
  // A second observation for a suite that failed only on tests that failed before the candidate and
  // passed alone on the unchanged code (commander's subcommand test spawns ts-node and times out when
  // two suites share two cores): they must pass alone with the candidate too. The loop's own gate and
  // the replay still judge the whole suite.
  const alone = onlyTestsThatPassedAlone(full, input.focused);
  if (alone && (await gate(run, alone, fork)).passed) return true;
  const failing = failingOf(full);
  const introduced = [...failedIds(full)].some((id) => !input.failingIds.has(id));
  if (full.report.parsed && !introduced && failing < input.failingCount) {
    const { partial } = run;
    if (
      !partial ||
      failing < partial.failing ||
      (failing === partial.failing && index < input.candidates.indexOf(partial.candidate))
    )
      run.partial = { candidate, failing };
  }
  return false;
}

/** Whether one candidate, already written in the fork, passes: the failing tests first when they can run alone. */
async function candidatePasses(run: ValidationRun, candidate: RankedCandidate, index: number, view: ForkView): Promise<boolean> {
  const { focused } = run.input;
  if (!focused) return fullSuite(run, candidate, index, view);
  const result = await gate(run, focused.command, view);
  const stillFailing = failingOf(result);
  if (result.passed) return fullSuite(run, candidate, index, view);
  // Fewer tests failing, yet not none: the full suite runs only to record a partial fix.
  if (result.report.parsed && stillFailing < focused.failing && stillFailing > 0) await fullSuite(run, candidate, index, view);
  return false;
}

/** One worker: its own fork, taking the next candidate in rank order until none is left or one ranked earlier won. */
async function worker(run: ValidationRun): Promise<void> {
  const { input, controller } = run;
  const fork = await input.workspace.fork();
  // The fork's own /tmp, kept from one candidate to the next: jest keeps its transforms and module
  // map there, and a cold jest run of one test file took 1.5 to 2 times a warm one (commander).
  const tmpDir = await mkdtemp(join(tmpdir(), 'fixloop-candidate-tmp-'));
  const view: ForkView = { root: fork.root, linkedFolders: fork.linkedFolders, tmpDir };
  try {
    const pristine = await fork.snapshot();
    for (;;) {
      const index = takeNext(run);
      const candidate = input.candidates[index];
      if (!candidate || !stillTaking(run, index) || controller.signal.aborted) return;
      try {
        await fork.writeFile(candidate.file, candidate.result);
      } catch {
        run.finished.add(index);
        continue; // a path the policy refuses: not a candidate at all
      }
      const passed = await candidatePasses(run, candidate, index, view);
      if (!controller.signal.aborted) {
        run.validated++;
        run.finished.add(index);
      }
      if (passed && !controller.signal.aborted) onePassed(run, index);
      input.onProgress?.({ validated: run.validated, total: input.candidates.length, plausible: run.passed.size });
      await fork.restore(pristine);
    }
  } finally {
    await fork.dispose();
    await rm(tmpDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The winner (the first in rank order that passed), else the best partial fix and what is left. */
function outcome(run: ValidationRun): ValidationResult {
  const { input, controller, finished, partial, validated, testExecutions } = run;
  const winner = Number.isFinite(run.winnerIndex) ? (input.candidates[run.winnerIndex] ?? null) : null;
  const stoppedBy = winner ? 'winner' : input.signal.aborted ? 'aborted' : controller.signal.aborted ? 'deadline' : 'exhausted';
  const remaining = winner ? [] : input.candidates.filter((_, index) => !finished.has(index));
  const plausible = [...run.passed]
    .sort((a, b) => a - b)
    .slice(0, Math.max(1, input.maxPlausible ?? 1))
    .flatMap((i) => input.candidates[i] ?? []);
  return { winner, plausible, partial: winner ? null : partial, validated, testExecutions, stoppedBy, remaining };
}
