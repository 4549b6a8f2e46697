// The engine port (docs/design.md §2): what proposes edits. Engines never run the authoritative gate.
import type { BudgetStop, Cost } from '../core/cost.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { Workspace } from '../workspace/workspace.ts';
import type { RepoConfig } from '../core/repo-config.ts';
import type { CandidateCount } from '../core/candidate-count.ts';
import type { CheckGateRunner } from '../gate/check-gate-runner.ts';

export type { CandidateCount } from '../core/candidate-count.ts';

export interface PreviousAttempt {
  attempt: number;
  engine: string;
  summary: string;
  gatePassed: boolean;
  failed: number;
  fingerprint: string | null;
  /** Why the loop did not accept it, in words (rejected change, failing tests, review). */
  verdict: string;
}

/**
 * What an attempt is for: `fix` changes the code until the failing tests pass (tests are protected);
 * `write-test` may only add or change tests, and must leave a test that fails on the pristine code.
 */
export type AttemptMode = 'fix' | 'write-test';

/** Lines known to be involved in the failure, e.g. a failing pull request's own diff. */
export interface LocalizationHint {
  file: string;
  lines: number[];
}

export interface AttemptContext {
  attempt: number;
  maxAttempts: number;
  workspace: Workspace;
  sandbox: Sandbox;
  config: RepoConfig;
  goal: string;
  instructions?: string;
  /**
   * The gate of the state this attempt starts from (its failing tests are the target). In a check run
   * (`checks`), its failing tests are the checks' diagnostics (file, line, rule, message) and the
   * tests that regressed, and `checks` runs that gate in an engine's own copy of the workspace.
   */
  lastGate: GateResult;
  baseline: GateResult;
  checks?: CheckGateRunner;
  /**
   * The tests found flaky so far (docs/design.md §3.2.8), left out of `lastGate` and `baseline`: a run
   * of the suite that fails only on them is as good as a pass, never a reason to change the code.
   */
  flaky?: ReadonlySet<string>;
  previousAttempts: PreviousAttempt[];
  hints: LocalizationHint[];
  mode: AttemptMode;
  /** Tasks a reviewer said were still missing after the last green attempt. */
  remainingTasks: string[];
  signal: AbortSignal;
  /** Epoch milliseconds by which the engine must have returned. */
  deadline: number;
  /** Lines for the attempt's log and the live progress. */
  log: (line: string) => void;
  /**
   * The count of a long validation as it goes (the repair engine's candidates): live progress only,
   * shown in place on a terminal and never kept in the log, where one line per candidate would bury the rest.
   */
  countCandidates?: (count: CandidateCount) => void;
}

export interface EngineOutcome {
  summary: string;
  cost: Cost;
  /** The engine has nothing more to try from this state (the cascade moves on). */
  gaveUp: boolean;
  /**
   * The engine's own per-attempt budget ran out with work left from this same state, and it changed
   * nothing: the next attempt goes on where this one stopped (when no engine comes after it in the
   * cascade; otherwise the cascade moves on). Not a failed attempt: there is nothing to gate.
   */
  continues?: boolean;
  /** Engine-specific counters for the report and the benchmark (e.g. candidates, testExecutions). */
  stats?: Record<string, number>;
  /** Set when a budget stopped the engine: it will not work again in this run. */
  budgetStop?: BudgetStop;
  /** Things the report should show, e.g. edits the path policy refused. */
  notes?: string[];
  /**
   * The candidate the engine applied, when it chose among several that pass the tests (the `repair`
   * engine's exploration): what it is, in one line, and why it weakens a check when it does.
   */
  chosen?: { summary: string; weakens?: string };
  /** The other candidates that passed the tests, best first: what the chosen one was preferred to. */
  alternatives?: AlternativeCandidate[];
}

/** A patch that also passed the tests, and was not applied. */
export interface AlternativeCandidate {
  /**
   * Unified diff against the pristine commit, as the loop's patches are (`Workspace.diff()`): what the
   * attempt started from (earlier attempts' changes included) with this candidate in place of the
   * chosen one, so it applies where the final patch does.
   */
  patch: string;
  /** One line: `src/a.js:12 \`&&\` → \`||\` (template logical-operator)`. */
  summary: string;
  /** Why it weakens a check, when it does: `weakens the check that throws "Invalid value" (…)`. */
  weakens?: string;
  /** Why the chosen candidate was preferred to this one. */
  passedOver?: string;
}

export interface Engine {
  readonly name: string;
  /** Whether it can work in `write-test` mode (red → green for issues without a failing test). */
  readonly canWriteTests?: boolean;
  attempt(context: AttemptContext): Promise<EngineOutcome>;
}
