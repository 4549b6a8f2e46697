// Red → green, the red half: when every test passes but an issue describes a bug, an engine that can
// write tests first writes one that FAILS on the pristine code. Only test files may change, and the
// loop (not the engine) checks the proof: the suite fails, and only in tests this phase wrote.
import type { RepoConfig } from '../core/repo-config.ts';
import type { EngineOutcome, PreviousAttempt } from '../engines/engine.ts';
import type { Cost } from '../core/cost.ts';
import { EngineError } from '../engines/engine-error.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { AttemptRecord, TestOutcome } from '../core/run-result.ts';
import type { Finding } from '../core/findings.ts';
import { gateSummary, testOutcomes } from '../report/summarize.ts';
import { checkConstraints } from '../verify/constraints.ts';
import { createPathPolicy, type PathPolicy } from '../workspace/path-policy.ts';
import type { Snapshot, Workspace } from '../workspace/workspace.ts';
import type { FileChange } from '../core/file-change.ts';
import type { Artifacts } from './artifacts.ts';
import { AttemptLog } from './attempt-log.ts';
import type { FixLoopInput } from './fix-loop.ts';

/** What the red phase shares with the fix loop, plus its own bound and the policy switch. */
export interface RedPhaseInput
  extends Pick<FixLoopInput, 'workspace' | 'sandbox' | 'config' | 'engines' | 'baseline' | 'goal' | 'instructions' | 'hints' | 'signal' | 'deadline' | 'runGate' | 'artifacts' | 'onProgress'> {
  /** Attempts this phase may use (the rest of the run's maximum is left to the fix). */
  maxAttempts: number;
  /** Makes `policy` the workspace's path policy (the test-only one during this phase). */
  usePolicy: (policy: PathPolicy) => void;
}

export interface RedProofState {
  gate: GateResult;
  failedBefore: TestOutcome[];
  /** The test files as this phase left them (null = deleted): the fix may not change them. */
  testFiles: Snapshot;
}

export interface RedPhaseOutcome {
  proof: RedProofState | null;
  attempts: AttemptRecord[];
  previous: PreviousAttempt[];
  cost: Cost;
  /** Why no proof, in words. */
  explanation: string;
}

/** The globs that name test files (the protected paths outside .github). */
export function testGlobs(config: RepoConfig): string[] {
  return config.paths.protected.filter((g) => !g.startsWith('.github'));
}

export async function runRedPhase(input: RedPhaseInput): Promise<RedPhaseOutcome> {
  const { workspace, config, baseline } = input;
  const testPolicy = createPathPolicy({ allowed: testGlobs(config), protected: ['.github/**'] });
  const attempts: AttemptRecord[] = [];
  const previous: PreviousAttempt[] = [];
  const cost: Cost = { usd: 0, tokens: 0 };
  let explanation = 'no engine could write tests';
  let engineIndex = 0;
  for (let n = 1; n <= input.maxAttempts; n++) {
    const engine = input.engines[engineIndex];
    if (!engine || input.signal.aborted || Date.now() >= input.deadline) break;
    const started = Date.now();
    const log = new AttemptLog((line) => input.onProgress({ phase: 'engine', attempt: n, maxAttempts: config.loop.maxAttempts, message: line }));
    input.onProgress({ phase: 'write-test', attempt: n, maxAttempts: config.loop.maxAttempts, message: `attempt ${n} (${engine.name}): writing a test that shows the bug` });
    const start = await workspace.snapshot();
    input.usePolicy(testPolicy);
    let outcome: EngineOutcome;
    try {
      outcome = await engine.attempt({
        attempt: n,
        maxAttempts: config.loop.maxAttempts,
        workspace,
        sandbox: input.sandbox,
        config,
        goal: input.goal,
        ...(input.instructions !== undefined ? { instructions: input.instructions } : {}),
        lastGate: baseline,
        baseline,
        previousAttempts: [...previous],
        hints: input.hints,
        mode: 'write-test',
        remainingTasks: [],
        signal: input.signal,
        deadline: input.deadline,
        log: log.add,
      });
    } catch (error) {
      if (error instanceof EngineError && error.code !== 'ENGINE_FAILED') throw error;
      outcome = { summary: `engine failed: ${(error as Error).message}`, cost: { usd: 0, tokens: 0 }, gaveUp: true };
    }
    cost.usd += outcome.cost.usd;
    cost.tokens += outcome.cost.tokens;

    const changes = await workspace.changes();
    const findings = checkConstraints(changes, testPolicy, config.constraints);
    let gate: GateResult | null = null;
    let verdict: string;
    if (findings.length > 0) verdict = `rejected: ${findings[0]?.message ?? 'constraint'}`;
    else if (changes.length === 0) verdict = 'no test was written';
    else {
      gate = await input.runGate(log);
      verdict = await judgeRed(baseline, gate, changes, workspace);
    }
    const proven = verdict === 'proven' && gate !== null;
    if (!proven) log.add(`red phase: ${verdict}`);
    const failedBefore = gate ? testOutcomes(gate.report, 'failed') : [];
    attempts.push(record(n, engine.name, outcome, changes, findings, gate, failedBefore, started, input.artifacts));
    await input.artifacts.writeAttempt(n, await workspace.diff(), log.text());
    if (proven && gate) {
      log.add(`red phase: ${failedBefore.length} new test(s) fail on the pristine code`);
      return { proof: { gate, failedBefore, testFiles: await workspace.snapshot() }, attempts, previous, cost, explanation: 'proven' };
    }
    explanation = verdict;
    previous.push({ attempt: n, engine: engine.name, summary: outcome.summary, gatePassed: gate?.passed ?? false, failed: failedBefore.length, fingerprint: null, verdict: `the test written was not accepted: ${verdict}` });
    await workspace.restore(start);
    if (outcome.gaveUp || outcome.budgetStop) engineIndex++;
  }
  return { proof: null, attempts, previous, cost, explanation };
}

/** 'proven', or why not: the suite must fail, per test, and only in tests this phase wrote or changed. */
async function judgeRed(baseline: GateResult, gate: GateResult, changes: FileChange[], workspace: Workspace): Promise<string> {
  if (gate.passed) return 'the new test passes on the pristine code, so it does not show the bug';
  if (gate.reason === 'TIMEOUT') return 'the test run timed out';
  if (!gate.report.parsed) return 'the test output could not be parsed per test, so the new failing test cannot be told apart';
  const failing = gate.report.tests.filter((t) => t.status === 'failed');
  if (failing.length === 0) return 'the suite failed but no test failed (a syntax or import error?)';
  const before = new Set(baseline.report.tests.map((t) => t.id));
  const changed = new Set(changes.map((c) => c.path));
  const written = (await Promise.all(changes.filter((c) => c.kind !== 'deleted').map((c) => workspace.readFile(c.path).catch(() => '')))).join('\n');
  const isNew = (t: { id: string; name: string; file?: string }) => !before.has(t.id) || (t.file !== undefined && changed.has(t.file)) || written.includes(t.name);
  const others = failing.filter((t) => !isNew(t));
  if (others.length > 0) return `tests this phase did not write fail now: ${others.slice(0, 5).map((t) => t.id).join(', ')}`;
  return 'proven';
}

function record(n: number, engine: string, outcome: EngineOutcome, changes: FileChange[], findings: Finding[], gate: GateResult | null, failing: TestOutcome[], started: number, artifacts: Artifacts): AttemptRecord {
  return {
    attempt: n,
    phase: 'write-test',
    engine,
    summary: outcome.summary,
    startedFrom: 'baseline',
    changes,
    findings,
    gate: gate ? gateSummary(gate) : null,
    fingerprint: null,
    failingTests: failing,
    cost: outcome.cost,
    engineStats: outcome.stats ?? {},
    notes: outcome.notes ?? [],
    ...(outcome.budgetStop ? { budgetStop: outcome.budgetStop } : {}),
    durationMs: Date.now() - started,
    diffPath: artifacts.attemptDiffPath(n),
    logPath: artifacts.attemptLogPath(n),
  };
}

/** Findings when the fix changed a test written in the red phase (it must stay as written). */
export async function redTestFindings(proof: RedProofState, workspace: Workspace): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [path, content] of proof.testFiles.files) {
    const now = await workspace.readFile(path).catch(() => null);
    const then = content === null ? null : content.toString('utf8');
    if (now !== then) findings.push({ kind: 'path_protected', path, message: `\`${path}\` holds the test written first (red); the fix may not change it` });
  }
  return findings;
}
