// One run, end to end: workspace → setup → baseline gate → fix loop → verification → RunResult.
// The CLI and the GitHub App both call this; neither knows how the other starts it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config/config-error.ts';
import type { RepoConfig } from '../core/repo-config.ts';
import { createEngines, type EngineEnvironment, type RunEngines } from '../engines/create-engines.ts';
import type { Engine } from '../engines/engine.ts';
import { createMemorySpendLedger } from '../core/spend-ledger.ts';
import type { GateResult } from '../core/gate-result.ts';
import { runGate } from '../gate/run-gate.ts';
import { emptyReport } from '../core/test-report.ts';
import { renderMarkdownReport } from '../report/render-markdown.ts';
import type { AttemptRecord, RedProof, RunEvent, RunResult, RunStatus, StopReason, Verification } from '../core/run-result.ts';
import { failingCount, testCounts, testOutcomes } from '../report/summarize.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { FixRequest } from '../core/fix-request.ts';
import type { CloneAuth } from '../core/clone-auth.ts';
import { checkConstraints } from '../verify/constraints.ts';
import { replayPatch } from '../verify/replay-patch.ts';
import { createWorkspace } from '../workspace/create-workspace.ts';
import { createPathPolicy, type PathPolicy } from '../workspace/path-policy.ts';
import type { Workspace } from '../workspace/workspace.ts';
import { createArtifacts } from './artifacts.ts';
import type { AttemptLog } from './attempt-log.ts';
import { runFixLoop, type FixLoopOutcome } from './fix-loop.ts';
import type { ProgressListener, RunProgress } from './progress.ts';
import { describeError, errorCode, RunError } from './run-error.ts';
import { changedLinesSince } from './changed-lines.ts';
import { headlineFor } from './headline.ts';
import { redTestFindings, runRedPhase, testGlobs, type RedPhaseOutcome, type RedProofState } from './red-phase.ts';
import type { Reviewer } from '../core/reviewer.ts';
import { repositoryKey } from '../core/repository-key.ts';

export type { RunProgress } from './progress.ts';

export interface RunFixDeps {
  sandbox: Sandbox;
  /** The run's artifacts go to `<artifactsRoot>/<runId>/` unless `artifactsDir` names the exact directory. */
  artifactsRoot: string;
  artifactsDir?: string;
  auth?: CloneAuth;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  tmpRoot?: string;
  /** Called once the workspace exists, to read the repository's own configuration (the CLI's case). */
  resolveConfig?: (workspaceRoot: string) => Promise<RepoConfig>;
  /** Setup commands may reach the network (never the tests): the app's setting, not the repository's. */
  setupNetwork?: boolean;
  /** Engines by name; defaults to the built-in ones. */
  createEngines?: (config: RepoConfig) => Promise<Engine[]>;
  /** With `createEngines`: the reviewer to use (tests). */
  reviewer?: Reviewer | null;
  /** The app's environment for LLM engines (models, keys, ceilings) and the daily spend ledger; defaults to process.env and a ledger in memory. */
  engineEnvironment?: EngineEnvironment;
}

export async function runFix(request: FixRequest, deps: RunFixDeps): Promise<RunResult> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const events: RunEvent[] = [];
  const note = (kind: string, message: string) => events.push({ at: new Date().toISOString(), kind, message });
  const progress = (p: RunProgress) => {
    if (p.phase !== 'engine') note(p.phase, p.message);
    deps.onProgress?.(p);
  };
  const signal = deps.signal ?? new AbortController().signal;
  const artifacts = await createArtifacts(deps.artifactsDir ?? join(deps.artifactsRoot, request.runId));
  const scratch = await mkdtemp(join(deps.tmpRoot ?? tmpdir(), 'fixloop-'));
  let config = request.config;
  let workspace: Workspace | null = null;

  const base: RunResult = {
    runId: request.runId,
    status: 'error',
    headline: '',
    repository: { source: request.repository.cloneUrl, ref: request.repository.ref, sha: request.repository.sha ?? '' },
    testCommand: config.test.command ?? '',
    engines: [...config.engines],
    engine: null,
    sandbox: deps.sandbox.backend,
    attempts: [],
    patch: '',
    filesChanged: [],
    baseline: testCounts(emptyReport()),
    baselineTests: [],
    final: null,
    verification: null,
    cost: { usd: 0, tokens: 0 },
    startedAt,
    durationMs: 0,
    artifactsDir: artifacts.dir,
    events,
  };

  const finish = async (result: RunResult): Promise<RunResult> => {
    result.durationMs = Date.now() - started;
    result.headline = headlineFor(result);
    progress({ phase: 'done', message: result.headline });
    await artifacts.writeReport(renderMarkdownReport(result), result);
    return result;
  };

  try {
    // The policy is read through a holder: the repository's configuration is only known after the clone.
    let policy: PathPolicy = createPathPolicy(config.paths);
    const policyHolder: PathPolicy = { check: (path) => policy.check(path) };
    progress({ phase: 'clone', message: `cloning ${request.repository.cloneUrl}` });
    const created = await createWorkspace({
      source: request.repository.cloneUrl,
      ref: request.repository.ref,
      sha: request.repository.sha,
      tmpRoot: scratch,
      policy: policyHolder,
      ...(deps.auth ? { auth: deps.auth } : {}),
    });
    workspace = created.workspace;
    const ws = workspace;
    base.repository.sha = ws.baseSha;
    if (created.dirty) note('clone', 'the repository has uncommitted changes; fixloop works on its last commit');
    if (deps.resolveConfig) {
      config = await deps.resolveConfig(ws.root);
      policy = createPathPolicy(config.paths);
      base.testCommand = config.test.command ?? '';
      base.engines = [...config.engines];
    }
    const hints = [...request.hints];
    if (request.repository.baseRef) {
      try {
        hints.push(...(await changedLinesSince(created.mirror, request.repository.baseRef, ws.baseSha)));
      } catch {
        throw new RunError('BASE_REF_NOT_FOUND', `the base ref \`${request.repository.baseRef}\` was not found in the repository`);
      }
      note('clone', `localization hints: ${hints.length} file(s) changed since ${request.repository.baseRef}`);
    }
    const testCommand = config.test.command;
    if (!testCommand) throw new ConfigError('no test command: pass --test "<command>" or set `test.command` in fixloop.yml', 'test.command');
    const kit: RunEngines = deps.createEngines
      ? { engines: await deps.createEngines(config), reviewer: deps.reviewer ?? null, budget: null }
      : await createEngines(config, deps.engineEnvironment ?? { env: process.env, ledger: createMemorySpendLedger() }, { repository: repositoryKey(request.repository.cloneUrl), workspace: ws, sandbox: deps.sandbox });
    const engines = kit.engines;
    const withSpend = (result: RunResult): RunResult => (kit.budget ? { ...result, spend: { ...kit.budget.spent, limits: { ...kit.budget.limits } } } : result);
    const deadline = started + config.loop.timeBudget * 1000;

    if (config.setup.command) {
      progress({ phase: 'setup', message: `setup: ${config.setup.command}` });
      const setup = await deps.sandbox.run({ command: config.setup.command, cwd: ws.root, timeoutMs: config.setup.timeout * 1000, env: config.env, signal, network: deps.setupNetwork === true });
      if (setup.exitCode !== 0) {
        const tail = setup.output.split('\n').slice(-20).join('\n');
        return await finish({
          ...base,
          status: 'error',
          error: { code: 'SETUP_FAILED', message: `the setup command \`${config.setup.command}\` failed (${setup.timedOut ? 'timed out' : `exit ${setup.exitCode ?? setup.signal}`}):\n${tail}` },
        });
      }
    }
    await ws.markEnvironment();

    const gateIn = (log?: AttemptLog) => async (): Promise<GateResult> => {
      const remaining = Math.max(1000, deadline - Date.now());
      const gate = await runGate(deps.sandbox, {
        command: testCommand,
        cwd: ws.root,
        timeoutMs: Math.min(config.test.timeout * 1000, remaining),
        env: config.env,
        signal,
        ...(config.test.report ? { reportFile: config.test.report } : {}),
      });
      log?.section(`gate: ${testCommand}`, gate.output);
      return gate;
    };
    progress({ phase: 'baseline', message: `baseline: ${testCommand}` });
    const baseline = await gateIn()();
    await ws.markEnvironment();
    await artifacts.writeAttempt(0, '', `==== baseline: ${testCommand} ====\n${baseline.output}`);
    base.baseline = testCounts(baseline.report);
    base.baselineTests = testOutcomes(baseline.report);
    progress({ phase: 'baseline', failing: failingCount(baseline), message: baselineMessage(baseline) });

    let red: RedPhaseOutcome | null = null;
    if (baseline.passed) {
      const writers = engines.filter((e) => e.canWriteTests === true);
      const why = request.writeTestWhenGreen !== true
        ? null
        : !config.agent.writeTests
          ? 'agent.writeTests is off'
          : writers.length === 0
            ? `no engine of the cascade (${config.engines.join(', ')}) can write tests`
            : testGlobs(config).length === 0
              ? 'no test paths are configured (paths.protected)'
              : config.loop.maxAttempts < 2
                ? 'red → green needs loop.maxAttempts of 2 or more'
                : '';
      if (why !== '') {
        if (why) note('write-test', `no test was written first: ${why}`);
        return await finish({ ...base, status: 'nothing_to_fix', final: testCounts(baseline.report) });
      }
      red = await runRedPhase({
        workspace: ws,
        sandbox: deps.sandbox,
        config,
        engines: writers,
        baseline,
        goal: request.goal,
        ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
        hints,
        signal,
        deadline,
        maxAttempts: Math.min(2, config.loop.maxAttempts - 1),
        usePolicy: (p) => {
          policy = p;
        },
        runGate: (log) => gateIn(log)(),
        artifacts,
        onProgress: progress,
      });
      policy = createPathPolicy(config.paths);
      if (!red.proof) {
        note('write-test', `no test that fails on the pristine code could be written: ${red.explanation}`);
        return await finish(withSpend({ ...base, status: 'nothing_to_fix', final: testCounts(baseline.report), attempts: red.attempts, cost: red.cost, redGreen: { failedBefore: [], after: null, testFiles: [], explanation: red.explanation } }));
      }
      progress({ phase: 'write-test', failing: red.proof.failedBefore.length, message: `red: ${red.proof.failedBefore.length} new test(s) fail on the pristine code; now fixing the code` });
    }
    const proof = red?.proof ?? null;
    const judgeFrom = proof?.gate ?? baseline;
    // With a red test, its files stay exactly as written, and only the other changes meet the constraints.
    const changesToCheck = async () => {
      const changes = await ws.changes();
      return proof ? changes.filter((c) => !proof.testFiles.files.has(c.path)) : changes;
    };

    const outcome = await runFixLoop({
      workspace: ws,
      sandbox: deps.sandbox,
      config,
      engines,
      baseline: judgeFrom,
      goal: request.goal,
      ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
      hints,
      signal,
      deadline,
      reviewer: kit.reviewer,
      ...(red ? { firstAttempt: red.attempts.length + 1, previousAttempts: red.previous } : {}),
      checkChanges: async () => [...(proof ? await redTestFindings(proof, ws) : []), ...checkConstraints(await changesToCheck(), policy, config.constraints)],
      runGate: (log) => gateIn(log)(),
      verify: async (patch, log) =>
        replayPatch({
          mirror: created.mirror,
          baseSha: ws.baseSha,
          patch,
          changes: await changesToCheck(),
          baseline: judgeFrom.report,
          config,
          policy,
          sandbox: deps.sandbox,
          setupNetwork: deps.setupNetwork === true,
          scratchDir: scratch,
          signal,
          log: log.add,
        }),
      artifacts,
      onProgress: progress,
      volatileRoots: [ws.root, scratch],
    });
    return await finish(withSpend(resultFromLoop(base, outcome, red)));
  } catch (error) {
    const code = errorCode(error);
    if (code === 'INTERNAL') note('error', describeError(error));
    return await finish({ ...base, status: 'error', error: { code, message: describeError(error) } });
  } finally {
    await workspace?.dispose().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

function resultFromLoop(base: RunResult, outcome: FixLoopOutcome, red: RedPhaseOutcome | null): RunResult {
  const last = outcome.attempts.at(-1);
  const attempts: AttemptRecord[] = [...(red?.attempts ?? []), ...outcome.attempts];
  const status: RunStatus = outcome.green ? 'tests_green' : escalates(outcome.stopReason) ? 'escalated' : 'failed_to_green';
  const result: RunResult = {
    ...base,
    status,
    engine: outcome.engine,
    attempts,
    patch: outcome.green ? outcome.patch : '',
    filesChanged: outcome.green && last ? last.changes : [],
    final: outcome.verification?.gate?.counts ?? testCounts(outcome.lastGate.report),
    verification: outcome.verification,
    cost: { usd: outcome.cost.usd + (red?.cost.usd ?? 0), tokens: outcome.cost.tokens + (red?.cost.tokens ?? 0) },
  };
  if (red?.proof) result.redGreen = redProof(red.proof, outcome.verification);
  if (outcome.stopReason) {
    result.stopReason = outcome.stopReason;
    note(result, 'stop', outcome.explanation);
  }
  return result;
}

function redProof(proof: RedProofState, verification: Verification | null): RedProof {
  const after = verification?.replayed
    ? proof.failedBefore.map((t) => ({ id: t.id, status: verification.failToPass.includes(t.id) ? ('passed' as const) : ('failed' as const) }))
    : null;
  return { failedBefore: proof.failedBefore, after, testFiles: [...proof.testFiles.files.keys()].sort() };
}

function note(result: RunResult, kind: string, message: string): void {
  result.events.push({ at: new Date().toISOString(), kind, message });
}

/** Stops that need a person: the loop saw no way forward, as opposed to running out of budget. */
function escalates(reason: StopReason | null): boolean {
  return reason === 'no_progress' || reason === 'consecutive_failures' || reason === 'engines_exhausted';
}

function baselineMessage(gate: GateResult): string {
  if (gate.passed) return `baseline: green${gate.report.parsed ? ` (${gate.report.passed} passing)` : ''}`;
  if (!gate.report.parsed) return `baseline: failing (${gate.reason}${gate.exitCode !== undefined ? ` ${gate.exitCode}` : ''}; per-test details unknown)`;
  return `baseline: ${gate.report.failed} failing of ${gate.report.total}`;
}

