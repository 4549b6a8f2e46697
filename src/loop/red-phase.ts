// Red → green, the red half: when every test passes but an issue describes a bug, an engine that can
// write tests first writes one that FAILS on the pristine code. Only test files may change, and the
// loop (not the engine) checks the proof: the suite fails, and only in tests this phase wrote.
import type { Cost } from '../core/cost.ts';
import type { FileChange } from '../core/file-change.ts';
import type { Finding } from '../core/findings.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { RepoConfig } from '../core/repo-config.ts';
import type { AttemptRecord, TestOutcome } from '../core/run-result.ts';
import type { Engine, PreviousAttempt } from '../engines/engine.ts';
import { testOutcomes } from '../core/gate-summary.ts';
import { checkConstraints } from '../verify/constraints.ts';
import { createPathPolicy, type PathPolicy } from '../workspace/path-policy.ts';
import type { Snapshot, Workspace } from '../workspace/workspace.ts';
import type { AttemptLog } from './attempt-log.ts';
import {
  attemptLog,
  recordAttempt,
  runAttempt,
  type AttemptChecks,
  type AttemptShared,
  type AttemptStart,
  type EditedAttempt,
} from './attempt-runner.ts';

/** What the red phase needs: the run's shared inputs, the engines that can write tests, and its bound. */
export interface RedPhaseInput extends AttemptShared {
  /** The workspace under the red phase's policy, so its engines can change only tests. */
  workspace: Workspace;
  /** The red phase's policy (redPhasePolicy), which its changes must also meet. */
  policy: PathPolicy;
  /** Engines that can write tests, in cascade order. */
  engines: Engine[];
  baseline: GateResult;
  runGate: (log: AttemptLog) => Promise<GateResult>;
  /** Attempts this phase may use (the rest of the run's maximum is left to the fix). */
  maxAttempts: number;
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

/** Only test files may change in the red phase, and never the workflows. */
export function redPhasePolicy(config: RepoConfig): PathPolicy {
  return createPathPolicy({ allowed: testGlobs(config), protected: ['.github/**'] });
}

export async function runRedPhase(input: RedPhaseInput): Promise<RedPhaseOutcome> {
  const { config, baseline, workspace } = input;
  const attempts: AttemptRecord[] = [];
  const previous: PreviousAttempt[] = [];
  const cost: Cost = { usd: 0, tokens: 0 };
  const checks: AttemptChecks = {
    check: async (changes) => checkConstraints(changes, input.policy, config.constraints),
    runGate: input.runGate,
    gateUnchanged: false,
    cost,
  };
  let explanation = 'no engine could write tests';
  let engineIndex = 0;
  for (let n = 1; n <= input.maxAttempts; n++) {
    const engine = input.engines[engineIndex];
    if (!engine || input.signal.aborted || Date.now() >= input.deadline) break;
    const started = Date.now();
    const log = attemptLog(input, n);
    input.onProgress({
      phase: 'write-test',
      attempt: n,
      maxAttempts: config.loop.maxAttempts,
      message: `attempt ${n} (${engine.name}): writing a test that shows the bug`,
    });
    const start: AttemptStart = {
      n,
      engine,
      mode: 'write-test',
      workspace,
      baseline,
      lastGate: baseline,
      previous,
      remainingTasks: [],
    };
    const edited = await runAttempt(input, start, checks, log);
    const { outcome, changes, findings, gate } = edited;
    const verdict = await redVerdict(baseline, edited, workspace);
    const proven = verdict === 'proven' && gate !== null;
    if (!proven) log.add(`red phase: ${verdict}`);
    const failedBefore = gate ? testOutcomes(gate.report, 'failed') : [];
    attempts.push(
      await recordAttempt(
        input,
        start,
        { startedFrom: 'baseline', outcome, changes, findings, gate, fingerprint: null, failingTests: failedBefore, started },
        edited.patch,
        log,
      ),
    );
    if (proven && gate) {
      log.add(`red phase: ${failedBefore.length} new test(s) fail on the pristine code`);
      return {
        proof: { gate, failedBefore, testFiles: await workspace.snapshot() },
        attempts,
        previous,
        cost,
        explanation: 'proven',
      };
    }
    explanation = verdict;
    previous.push({
      attempt: n,
      engine: engine.name,
      summary: outcome.summary,
      gatePassed: gate?.passed ?? false,
      failed: failedBefore.length,
      fingerprint: null,
      verdict: `the test written was not accepted: ${verdict}`,
    });
    await workspace.restore(edited.before);
    if (outcome.gaveUp || outcome.budgetStop) engineIndex++;
  }
  return { proof: null, attempts, previous, cost, explanation };
}

/** 'proven', or why the attempt's test does not show the bug. */
async function redVerdict(baseline: GateResult, edited: EditedAttempt, workspace: Workspace): Promise<string> {
  const { findings, gate } = edited;
  if (findings.length > 0) return `rejected: ${findings[0]?.message ?? 'constraint'}`;
  // Without findings, only an attempt that changed nothing has no gate (gateUnchanged is off).
  if (!gate) return 'no test was written';
  return judgeRed(baseline, gate, edited.changes, workspace);
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
  const written = (
    await Promise.all(changes.filter((c) => c.kind !== 'deleted').map((c) => workspace.readFile(c.path).catch(() => '')))
  ).join('\n');
  const isNew = (t: { id: string; name: string; file?: string }) =>
    !before.has(t.id) || (t.file !== undefined && changed.has(t.file)) || written.includes(t.name);
  const others = failing.filter((t) => !isNew(t));
  if (others.length > 0)
    return `tests this phase did not write fail now: ${others
      .slice(0, 5)
      .map((t) => t.id)
      .join(', ')}`;
  return 'proven';
}

/** Findings when the fix changed a test written in the red phase (it must stay as written). */
export async function redTestFindings(proof: RedProofState, workspace: Workspace): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [path, content] of proof.testFiles.files) {
    const now = await workspace.readFile(path).catch(() => null);
    const then = content === null ? null : content.toString('utf8');
    if (now !== then)
      findings.push({
        kind: 'path_protected',
        path,
        message: `\`${path}\` holds the test written first (red); the fix may not change it`,
      });
  }
  return findings;
}
