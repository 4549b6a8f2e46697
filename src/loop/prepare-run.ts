// Preparing a run (docs/design.md §1.6): the workspace from a fresh clone, the configuration (the
// repository's own, read from the clone, with the caller's overrides on top, for a local run), the
// localization hints, the suite with the dependency cache, the engines, the setup and the baseline,
// and the environment check. What follows (the red phase and the loop, or a stored patch replayed)
// starts from here; local-run.ts puts the steps in order.
import { join } from 'node:path';
import { createEngines, type RunEngines } from '../engines/create-engines.ts';
import type { ConfigOverrides } from '../config/apply-overrides.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { LocalizationHint } from '../engines/engine.ts';
import type { RepoConfig } from '../core/repo-config.ts';
import type { RunEnvironment, RunResult } from '../core/run-result.ts';
import { createMemorySpendLedger } from '../core/spend-ledger.ts';
import { repositoryKey } from '../core/repository-key.ts';
import { startedFromLine } from '../core/working-tree.ts';
import { environmentFailure } from '../gate/environment-failure.ts';
import type { CommandResult, Sandbox } from '../sandbox/sandbox.ts';
import { failingCount, testCounts, testOutcomes } from '../core/gate-summary.ts';
import { createSuiteRunner, runSuite, setupEnding, type SuiteRunner } from '../gate/setup-then-gate.ts';
import { createWorkspace, type CreatedWorkspace } from '../workspace/create-workspace.ts';
import { openDependencyCache, savedTreeMounts } from '../workspace/dependency-cache.ts';
import { enforcesReadOnlyMounts, withMounts } from '../sandbox/with-mounts.ts';
import { createPathPolicy, type PathPolicy } from '../workspace/path-policy.ts';
import type { Workspace } from '../workspace/workspace.ts';
import { changedLinesSince } from './changed-lines.ts';
import { toolVersionsLine, versionMismatchSentences } from '../report/environment-lines.ts';
import { describeRunEnvironment } from './run-environment.ts';
import { repositoryConfig } from './local-request.ts';
import type { RunContext } from './run-context.ts';
import { RunError } from './run-error.ts';
import { baselineChecks, testCommandIsCheck } from './check-baseline.ts';
import { withFailedStep } from './failed-step.ts';
import type { CheckRun } from '../core/check-result.ts';
import { measureBaselineFlakiness, type BaselineFlakiness } from './flaky-baseline.ts';

export interface OpenedWorkspace {
  created: CreatedWorkspace;
  config: RepoConfig;
  /** The fix's path policy, from the configuration. */
  policy: PathPolicy;
  /** The workspace under that policy. */
  workspace: Workspace;
  hints: LocalizationHint[];
}

/** How the run's commands run: the sandbox, the suite (setup, then the gate) and the time budget. */
export interface RunSuite {
  /** The run's sandbox: the deps' one, showing the repository's saved dependency trees read-only when its checkouts link them. */
  sandbox: Sandbox;
  suite: SuiteRunner;
  /** Epoch milliseconds when the run's time budget ends. */
  deadline: number;
}

export interface PreparedRun extends OpenedWorkspace, RunSuite {
  /** The suite at the baseline. */
  baseline: GateResult;
  /** A check run's checks at the baseline (`checks`); null when the gate is the suite alone. */
  checks: CheckRun[] | null;
  /** The baseline's failing tests run again: the run's flaky tests (docs/design.md §3.2.8). */
  flakiness: BaselineFlakiness;
}

/**
 * Clones the repository and reads its configuration and hints; `onCreated` learns the workspace at
 * once, to dispose of it. With `overrides` (a local run), the configuration is the repository's file
 * as the run starts with it (its working tree, or HEAD), read from the clone, with them on top; without, the request's (the App's, a stored run's).
 */
export async function openWorkspace(
  ctx: RunContext,
  overrides: ConfigOverrides | null,
  onCreated: (created: CreatedWorkspace) => void,
): Promise<OpenedWorkspace> {
  const { request, deps, base } = ctx;
  ctx.progress({ phase: 'clone', message: `cloning ${request.repository.cloneUrl}` });
  const created = await createWorkspace({
    source: request.repository.cloneUrl,
    ref: request.repository.ref,
    sha: request.repository.sha,
    tmpRoot: ctx.scratch,
    policy: createPathPolicy(request.config.paths),
    ...(request.repository.workingTree !== undefined ? { workingTree: request.repository.workingTree } : {}),
    ...(deps.auth ? { auth: deps.auth } : {}),
  });
  onCreated(created);
  base.repository.sha = created.workspace.baseSha;
  if (created.workingTree) {
    base.repository.workingTree = created.workingTree;
    // Said when there is something to say: changes taken in, or changes left out (--head).
    const line = startedFromLine(created.workingTree);
    if (line && (created.workingTree.files.length > 0 || !created.workingTree.included))
      ctx.progress({ phase: 'clone', message: line });
  }
  let config = request.config;
  if (overrides) config = await repositoryConfig(created.workspace.root, overrides);
  // A failing check's step, read with the clone's scripts: the run's check, or its test command.
  const stepped = await withFailedStep(config, request.failedCommand, created.workspace.root);
  if (stepped.note) ctx.note('clone', stepped.note);
  if (overrides || stepped.note) {
    config = stepped.config;
    base.testCommand = config.test.command ?? '';
    base.engines = [...config.engines];
  }
  const policy = createPathPolicy(config.paths);
  return {
    created,
    config,
    policy,
    workspace: created.workspace.withPolicy(policy),
    hints: await localizationHints(ctx, created),
  };
}

async function localizationHints(ctx: RunContext, created: CreatedWorkspace): Promise<LocalizationHint[]> {
  const { request } = ctx;
  const hints = [...request.hints];
  if (request.repository.baseRef) {
    try {
      hints.push(...(await changedLinesSince(created.mirror, request.repository.baseRef, created.workspace.baseSha)));
    } catch {
      throw new RunError('BASE_REF_NOT_FOUND', `the base ref \`${request.repository.baseRef}\` was not found in the repository`);
    }
    ctx.note('clone', `localization hints: ${hints.length} file(s) changed since ${request.repository.baseRef}`);
  }
  return hints;
}

/** The sandbox (with the repository's dependency cache, when the operator keeps one) and the suite. */
export async function prepareSuite(ctx: RunContext, opened: OpenedWorkspace): Promise<RunSuite> {
  const { request, deps, base } = ctx;
  const { config } = opened;
  // Trees no lockfile decides are kept in the run's scratch folder, removed with it (dependency-cache.ts).
  const cache = deps.cacheDir
    ? await openDependencyCache(deps.cacheDir, repositoryKey(request.repository.cloneUrl), join(ctx.scratch, 'trees'))
    : null;
  const treeReuse = enforcesReadOnlyMounts(deps.sandbox) ? 'link' : 'copy';
  const sandbox = cache && treeReuse === 'link' ? withMounts(deps.sandbox, () => savedTreeMounts(cache)) : deps.sandbox;
  const suite = createSuiteRunner({
    sandbox,
    config,
    signal: ctx.signal,
    setupNetwork: deps.setupNetwork === true,
    cache,
    treeReuse,
  });
  const environment = await describeRunEnvironment(
    sandbox,
    [suite.setupCommand ?? '', suite.testCommand, ...config.checks],
    opened.workspace.root,
    ctx.signal,
  );
  if (environment) base.environment = environment;
  announceToolchain(ctx, environment);
  return { sandbox, suite, deadline: ctx.started + config.loop.timeBudget * 1000 };
}

/** The engines of the cascade (or the caller's), over the run's workspace and sandbox. */
export async function createRunEngines(ctx: RunContext, opened: OpenedWorkspace, sandbox: Sandbox): Promise<RunEngines> {
  const { request, deps } = ctx;
  if (deps.createEngines)
    return { engines: await deps.createEngines(opened.config), reviewer: deps.reviewer ?? null, budget: null };
  return createEngines(opened.config, deps.engineEnvironment ?? { env: process.env, ledger: createMemorySpendLedger() }, {
    repository: repositoryKey(request.repository.cloneUrl),
    workspace: opened.workspace,
    sandbox,
  });
}

/**
 * The setup and the baseline; a failed setup, or a baseline that shows a broken environment, ends
 * the run here, as an error.
 */
export async function runBaseline(ctx: RunContext, opened: OpenedWorkspace, run: RunSuite): Promise<PreparedRun | RunResult> {
  const { base } = ctx;
  const { config, workspace } = opened;
  const { suite, deadline } = run;
  const writeSetupLog = (setup: CommandResult) => ctx.artifacts.writeLog('setup.log', `$ ${suite.setupCommand}\n${setup.output}`);
  // A check run's checks run on the pristine checkout before the tests, as the replay runs them.
  let checks: Awaited<ReturnType<typeof baselineChecks>> = null;
  // The baseline is judged too: what the guard records on the pristine code is the repository's own.
  const ran = await runSuite(suite.judged([]), workspace.root, {
    announce: (step, command) =>
      ctx.progress(
        step === 'setup'
          ? { phase: 'setup', message: `setup: ${command}` }
          : { phase: 'baseline', message: `baseline: ${command}` },
      ),
    beforeTests: async (setup) => {
      if (setup) await writeSetupLog(setup);
      await workspace.markEnvironment();
      checks = await baselineChecks(ctx, { workspace, suite, deadline, timeoutSeconds: config.test.timeout });
      return Math.max(1000, deadline - Date.now());
    },
  });
  if (!ran.gate) {
    const logPath = await writeSetupLog(ran.setup);
    const ending = ran.setup.timedOut ? `timed out after ${config.setup.timeout} s` : setupEnding(ran.setup);
    return {
      ...base,
      status: 'error',
      error: {
        code: 'SETUP_FAILED',
        message: `the setup command \`${suite.setupCommand}\` failed (${ending}); its whole output is in ${logPath}:\n${causeLines(ran.setup.output)}`,
      },
    };
  }
  const baseline = ran.gate;
  await workspace.markEnvironment();
  await ctx.artifacts.writeAttempt(0, '', `==== baseline: ${suite.testCommand} ====\n${baseline.output}`);
  base.baseline = testCounts(baseline.report);
  base.baselineTests = testOutcomes(baseline.report);
  ctx.progress({ phase: 'baseline', failing: failingCount(baseline), message: baselineMessage(baseline) });
  // A broken environment is an error with its cause, never a bug handed to an engine.
  const broken = environmentFailure(baseline, {
    testCommand: suite.testCommand,
    timeoutSeconds: config.test.timeout,
    repositoryFiles: await workspace.listFiles(),
    ...nodeVersionOf(base.environment),
  });
  if (broken)
    return {
      ...base,
      status: 'error',
      final: testCounts(baseline.report),
      error: { code: broken.code, message: `${broken.message}. ${capitalized(broken.hint)}.` },
    };
  if (checks && 'status' in checks) return checks;
  const misused = await testCommandIsCheck(ctx, baseline, suite.testCommand, workspace.root);
  if (misused) return { ...misused, final: testCounts(baseline.report) };
  const flakiness = await measureBaselineFlakiness(ctx, {
    baseline,
    workspace,
    suite,
    reruns: config.loop.flakyReruns,
    checkRun: checks !== null,
    deadline,
  });
  return { ...opened, ...run, baseline, checks, flakiness };
}

function baselineMessage(gate: GateResult): string {
  if (gate.passed) return `baseline: green${gate.report.parsed ? ` (${gate.report.passed} passing)` : ''}`;
  if (!gate.report.parsed)
    return `baseline: failing (${gate.reason}${gate.exitCode !== undefined ? ` ${gate.exitCode}` : ''}; per-test details unknown)`;
  return `baseline: ${gate.report.failed} failing of ${gate.report.total}`;
}

/** The Node the tests ran on, as the toolchain line names it. */
function nodeVersionOf(environment: RunEnvironment | undefined): { nodeVersion?: string } {
  const version = environment?.toolchains.find((tool) => tool.name === 'node')?.version;
  return version ? { nodeVersion: version } : {};
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The tools that will run the tests, and the pins they miss, on the terminal before the setup starts. */
function announceToolchain(ctx: RunContext, environment: RunEnvironment | null): void {
  const tools = toolVersionsLine(environment ?? undefined);
  if (tools) ctx.progress({ phase: 'setup', message: `toolchain: ${tools}` });
  for (const sentence of versionMismatchSentences(environment ?? undefined)) ctx.progress({ phase: 'setup', message: sentence });
}

/** The lines of a failed setup that carry the cause (npm's `ERR!`, pip's `ERROR:`), else its last lines. */
export function causeLines(output: string): string {
  const lines = output.split('\n');
  const cause = lines.filter((l) => /npm (ERR!|error)|^ERROR:|^error:|^E: |Error:|ERR_PNPM|^YN0\d+.*error/i.test(l.trim()));
  const shown = cause.length > 0 ? cause.slice(0, 20) : lines.slice(-20);
  return shown.join('\n').trim() || '(the command printed nothing)';
}
