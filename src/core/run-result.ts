// RunResult (docs/design.md §2): one data structure per run, rendered to Markdown and JSON.
import type { Finding } from './findings.ts';
import type { BudgetStop, Cost } from './cost.ts';
import type { ReviewStatus } from './reviewer.ts';
import type { GateFailureReason } from './gate-result.ts';
import type { TestReportFormat, TestStatus, TestView, Witness } from './test-report.ts';
import type { FileChange } from './file-change.ts';
import type { RemovedFromRequest } from './request-text.ts';
import type { Assessment } from './assessment.ts';
import type { CheckRecord, CheckSummary } from './check-result.ts';
import type { WorkingTreeStart } from './working-tree.ts';
import type { Flakiness } from './flaky-test.ts';

/** `flaky`: the baseline's only failures were flaky tests (docs/design.md §3.2.8): nothing to repair, no patch. */
export type RunStatus = 'tests_green' | 'failed_to_green' | 'escalated' | 'nothing_to_fix' | 'flaky' | 'error';

/** Why a run that is not green stopped. */
export type StopReason =
  | 'max_attempts'
  | 'consecutive_failures'
  | 'no_progress'
  | 'time_budget'
  | 'engines_exhausted'
  | 'verification_failed'
  | 'budget'
  | 'cancelled';

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  total: number;
  /** False when the runner's output could not be parsed: only the exit code is known. */
  parsed: boolean;
  format: TestReportFormat;
  /** The runner's own machine report's counts (null: asked, none written). */
  witness?: Witness | null;
  /** Where the per-test view came from (TestReport's `view`); absent in runs stored before it existed. */
  view?: TestView;
}

export interface TestOutcome {
  id: string;
  status: TestStatus;
  message?: string;
  /** What the failed assertion expected and got, when the runner spelled them out (TestCaseResult). */
  expected?: string;
  actual?: string;
}

export interface GateSummary {
  passed: boolean;
  reason?: GateFailureReason;
  exitCode?: number;
  counts: TestCounts;
  durationMs: number;
}

export interface ReviewRecord {
  reviewer: string;
  status: ReviewStatus;
  remainingTasks: string[];
  reason?: string;
  cost: Cost;
  /** Set when the review could not run because a budget was used up. */
  budgetStop?: BudgetStop;
}

export interface AttemptRecord {
  attempt: number;
  /** `write-test`: the red phase of red → green (only test files may change); `fix` otherwise. */
  phase: 'write-test' | 'fix';
  engine: string;
  summary: string;
  /** Where the attempt started: what the previous attempt left, or the best state so far. */
  startedFrom: 'baseline' | 'previous' | 'best';
  changes: FileChange[];
  findings: Finding[];
  gate: GateSummary | null;
  fingerprint: string | null;
  failingTests: TestOutcome[];
  cost: Cost;
  /** Engine-specific counters (e.g. the repair engine's candidates and testExecutions). */
  engineStats: Record<string, number>;
  /** What the engine reported for people, e.g. writes the path policy refused. */
  notes: string[];
  /** Set when a budget stopped the engine during this attempt. */
  budgetStop?: BudgetStop;
  /** Set when the engine's own attempt budget ran out with work left, which the next attempt went on with. */
  continues?: boolean;
  /** The reviewer's verdict on a verified green attempt. */
  review?: ReviewRecord;
  durationMs: number;
  diffPath: string;
  logPath: string;
}

/** The fixed tests run again on their own, through the runner's selection (`command`: the first such run). */
export interface SecondObservation {
  ran: number;
  command: string | null;
  /** The fixed tests run from copies of their files (src/verify/copied-tests.ts); absent where they were not, or in runs stored before it. */
  copied?: CopyObservation;
  /** The fixed tests run with their expected values changed (src/verify/changed-expectations.ts); absent where they were not, or in runs stored before it. */
  expectations?: ExpectationObservation;
}

/** The fixed tests run again with the expected values their bodies state changed: each must fail. */
export interface ExpectationObservation {
  /** How many fixed tests ran with an expected value changed (0: not checked). */
  ran: number;
  command: string | null;
  /** One change made, for the report: `test/a.test.js:12 \`4\` → \`5\``. */
  example?: string;
  /** Why the look was not made: it says "not checked". */
  notChecked?: string;
}

/** The fixed tests run from copies of their test files under another name, their lines moved. */
export interface CopyObservation {
  /** How many fixed tests ran from the copies (0: not checked). */
  ran: number;
  command: string | null;
  /** Why the copies were not run or not taken by the runner: the look says "not checked". */
  notChecked?: string;
}

export interface Verification {
  /** The patch was applied to a fresh pristine clone and the full suite ran there. */
  replayed: boolean;
  passed: boolean;
  gate: GateSummary | null;
  failToPass: string[];
  passToFail: string[];
  stillFailing: string[];
  newlySkipped: string[];
  findings: Finding[];
  /** What the verdict stands on: per-test results, or the exit code alone (`test.evidence: exit-code`, a suite fixloop cannot read). */
  evidence?: 'per-test' | 'exit-code';
  /** The second observation of the fixed tests, when the replay's suite passed. */
  alone?: SecondObservation;
  /** fixloop's runtime guard in the replay's test processes (docs/design.md §3.2.7); absent in runs stored before it existed. */
  runtimeGuard?: RuntimeGuardStatus;
  /**
   * Where the judged baseline's per-test view came from (the replay's is `gate.counts.view`): with
   * `counts` or `none`, which tests failed is unknown. Absent in runs stored before it existed.
   */
  baselineView?: TestView;
  /** A check run's checks (`checks`) on the replay: each must pass. Absent when the gate is the suite alone. */
  checks?: CheckSummary[];
  /**
   * The flaky tests whose outcome in the replay counted for nothing (docs/design.md §3.2.8): known at
   * the baseline, or failing here after passing at the baseline and passing again when run again.
   * Absent when there were none.
   */
  flaky?: string[];
}

/**
 * Whether the runtime guard watched the replay: `available` when the command's runner has one and it
 * reached the baseline's test processes (`processes`: how many the replay's had). Without it the
 * level cannot be `verified` unless the operator accepted less evidence (`test.evidence: exit-code`).
 */
export interface RuntimeGuardStatus {
  runner: string | null;
  available: boolean;
  processes: number;
  accepted: boolean;
}

export interface AgentSpend {
  modelCalls: number;
  toolCalls: number;
  tokens: number;
  usd: number;
  ms: number;
  limits: { toolCalls: number; tokens: number; usd: number; timeMs: number; dailyTokens?: number; dailyUsd?: number };
}

/** Red → green: the test written first, failing on the pristine code, then passing with the fix. */
export interface RedProof {
  /** The tests that failed on the pristine code, with the failure message. */
  failedBefore: TestOutcome[];
  /** Their status after the fix, on the replayed checkout (null until verified). */
  after: TestOutcome[] | null;
  /** The test files written in the red phase. */
  testFiles: string[];
  /** Why no failing test could be written, when none was. */
  explanation?: string;
  /** Why none was even tried although a goal asked for one (the goal was not used): no engine writes tests, ... */
  notTried?: string;
}

/** What of the operator's machine the repository's commands saw: toolchains and package settings. */
export interface RunEnvironment {
  /**
   * The toolchains the setup and test commands resolve on the user's PATH (never fixloop's own Node),
   * with their real prefixes (`bound`: shown read-only). `version` and `path`: what `<tool> --version`
   * printed in the sandbox, and where its PATH found the tool (node, npm, python3, python). A tool
   * found only inside the sandbox (a docker image's) has kind `sandbox`.
   */
  toolchains: Array<{ name: string; kind: string; prefix: string; bound: boolean; version?: string; path?: string }>;
  /** Package manager settings passed (npm and pip keys, variables), never their values. */
  packageSettings: string[];
  /**
   * Versions the repository pins (`.nvmrc`, `.node-version`, package.json's `engines.node`,
   * `.python-version`) that the tool running its commands does not satisfy; `version` null when the
   * tool printed none (`said` then has what it printed). Absent when every pin is satisfied.
   */
  versionMismatches?: Array<{
    tool: 'node' | 'python';
    program: string;
    version: string | null;
    said?: string;
    file: string;
    wants: string;
  }>;
}

/** The phases of a run, as its progress names them. */
export type RunPhase = 'clone' | 'setup' | 'baseline' | 'write-test' | 'attempt' | 'verify' | 'assess';

/**
 * Where a cancelled run stopped (SIGINT or SIGTERM on the command line, `/fix cancel`, a workflow
 * cancelled, the library's signal): the phase it was in, and the attempt when one was running. A
 * cancelled run is `failed_to_green` with `stopReason: 'cancelled'`, whatever the phase: never an
 * error of the setup or an engine's giving up, which the stopped commands would otherwise look like.
 */
export interface Cancellation {
  phase: RunPhase;
  attempt?: number;
}

export interface RunEvent {
  at: string;
  kind: string;
  message: string;
}

export interface RunResult {
  runId: string;
  status: RunStatus;
  stopReason?: StopReason;
  /** One sentence a person can act on. */
  headline: string;
  /**
   * `sha`: the commit the run started from; for a local working tree with uncommitted changes, a
   * commit of fixloop's mirror on top of the user's HEAD (never written to their repository).
   * `workingTree`: set for the top of a local repository: what differed from HEAD when the run
   * started, and whether the run included it (`startedFromLine` says it in words).
   */
  repository: { source: string; ref: string | null; sha: string; workingTree?: WorkingTreeStart };
  testCommand: string;
  /** A check run (`--check`, `checks:`): the checks that were the gate and what they said at the baseline. */
  checks?: CheckRecord;
  engines: string[];
  /** Engine whose attempt produced the final patch, if any. */
  engine: string | null;
  sandbox: string;
  /** The toolchains and package settings the sandbox gave the repository's commands. */
  environment?: RunEnvironment;
  attempts: AttemptRecord[];
  patch: string;
  filesChanged: FileChange[];
  baseline: TestCounts;
  baselineTests: TestOutcome[];
  final: TestCounts | null;
  verification: Verification | null;
  /**
   * What else a green patch changed outside the failing tests, after the judge held (docs/design.md §3.3),
   * and the level the publication shows: `verified` (a ready pull request, a success check, exit 0)
   * or `review` (a draft, a neutral check, exit 4; the status stays `tests_green`). Absent when no
   * assessment ran: `assessment.enabled: false`, a replay, a run stored before it existed, a run
   * that is not green.
   */
  assessment?: Assessment;
  cost: Cost;
  /** What LLM engines and the reviewer spent in this run, against which limits. */
  spend?: AgentSpend;
  /** Set when the run wrote a failing test first (the baseline was green). */
  redGreen?: RedProof;
  /** The flaky tests the run found and the reruns that found them (docs/design.md §3.2.8); absent when none ran. */
  flakiness?: Flakiness;
  /** Set when no engine ran: the run replayed the stored patch of the run it is named after (`fixloop replay`). */
  replay?: true;
  startedAt: string;
  durationMs: number;
  artifactsDir: string;
  events: RunEvent[];
  /** Set when the run was cancelled (`stopReason: 'cancelled'`): where it stopped. */
  cancelled?: Cancellation;
  /** Set when something the request's page does not show was removed from its text (counts, never the text). */
  request?: { removed: RemovedFromRequest };
  error?: { code: string; message: string };
}
