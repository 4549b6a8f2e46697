// After the baseline: nothing to fix, or a red phase first (a test that shows the bug, when every
// test passes and the goal names one), then the fix loop, each attempt's green gate replayed on a
// pristine checkout, and the outcome turned into the run's result (ended and reported by local-run.ts).
import type { FileChange } from '../core/file-change.ts';
import type { RunResult } from '../core/run-result.ts';
import type { RunEngines } from '../engines/create-engines.ts';
import type { Engine } from '../engines/engine.ts';
import type { RepoConfig } from '../core/repo-config.ts';
import { testCounts } from '../core/gate-summary.ts';
import { checkConstraints } from '../verify/constraints.ts';
import { replayPatch } from '../verify/replay-patch.ts';
import type { AttemptLog } from './attempt-log.ts';
import type { AttemptShared } from './attempt-runner.ts';
import { runFixLoop } from './fix-loop.ts';
import type { PreparedRun } from './prepare-run.ts';
import { redPhasePolicy, redTestFindings, runRedPhase, testGlobs, type RedPhaseOutcome } from './red-phase.ts';
import type { RunContext } from './run-context.ts';
import { resultFromLoop } from './result-from-loop.ts';
import { checkPhase, checksPass } from './check-phase.ts';
import { confirmNewFailures, onlyFlakyFailed, withoutFlaky } from '../gate/flaky-tests.ts';
import { flakyResult } from './flaky-baseline.ts';
import { measureGreenBaseline } from './green-baseline-flakiness.ts';

/**
 * Why no test is written first on a green baseline, in words; '' when one may be. Null: the request
 * never asked for one (a pull request's check), so there is nothing to say.
 */
export function whyNoRedPhase(writeTestWhenGreen: boolean | undefined, config: RepoConfig, engines: Engine[]): string | null {
  if (writeTestWhenGreen !== true) return null;
  if (!config.agent.writeTests) return 'agent.writeTests is off';
  if (!engines.some((e) => e.canWriteTests === true))
    return `no engine of the cascade (${config.engines.join(', ')}) can write tests`;
  if (testGlobs(config).length === 0) return 'no test paths are configured (paths.protected)';
  if (config.loop.maxAttempts < 2) return 'red → green needs loop.maxAttempts of 2 or more';
  return '';
}

export async function fixAndVerify(ctx: RunContext, run: PreparedRun, kit: RunEngines): Promise<RunResult> {
  const { base } = ctx;
  const { baseline } = run;
  const withSpend = (result: RunResult): RunResult =>
    kit.budget ? { ...result, spend: { ...kit.budget.spent, limits: { ...kit.budget.limits } } } : result;
  // A check run: the checks are the gate, the tests guard; nothing to fix when they pass, no red phase.
  const check = run.checks ? checkPhase(run, run.checks) : null;
  if (run.checks) {
    const clean = checksPass(base, run, run.checks);
    if (clean) return clean;
  }
  // Failures that are all flaky leave nothing to repair (docs/design.md §3.2.8).
  const { flaky } = run.flakiness;
  if (!check && onlyFlakyFailed(baseline, flaky.ids)) return flakyResult(base, baseline);
  let red: RedPhaseOutcome | null = null;
  if (baseline.passed && !check) {
    const why = whyNoRedPhase(ctx.request.writeTestWhenGreen, run.config, kit.engines);
    if (why !== '') {
      // Something was said to fail: a green baseline is run again before it is "nothing to fix".
      if ((await measureGreenBaseline(ctx, run)).length > 0) return flakyResult(base, baseline);
      if (!why) return { ...base, status: 'nothing_to_fix', final: testCounts(baseline.report) };
      ctx.note('write-test', `no test was written first: ${why}`);
      return {
        ...base,
        status: 'nothing_to_fix',
        final: testCounts(baseline.report),
        redGreen: { failedBefore: [], after: null, testFiles: [], notTried: why },
      };
    }
    const policy = redPhasePolicy(run.config);
    red = await runRedPhase({
      ...shared(ctx, run),
      workspace: run.created.workspace.withPolicy(policy),
      policy,
      engines: kit.engines.filter((e) => e.canWriteTests === true),
      baseline,
      runGate: gateIn(ctx, run),
      maxAttempts: Math.min(2, run.config.loop.maxAttempts - 1),
    });
    if (!red.proof) {
      ctx.note('write-test', `no test that fails on the pristine code could be written: ${red.explanation}`);
      return withSpend({
        ...base,
        status: 'nothing_to_fix',
        final: testCounts(baseline.report),
        attempts: red.attempts,
        cost: red.cost,
        redGreen: { failedBefore: [], after: null, testFiles: [], explanation: red.explanation },
      });
    }
    ctx.progress({
      phase: 'write-test',
      failing: red.proof.failedBefore.length,
      message: `red: ${red.proof.failedBefore.length} new test(s) fail on the pristine code; now fixing the code`,
    });
  }
  const outcome = await runFixLoop({
    ...shared(ctx, run),
    ...(check ? { checks: check.runner } : {}),
    workspace: run.workspace,
    engines: kit.engines,
    // The flaky tests' failures are no engine's target and no progress.
    baseline: check?.baseline ?? red?.proof?.gate ?? withoutFlaky(baseline, flaky.ids),
    reviewer: kit.reviewer,
    ...(red ? { firstAttempt: red.attempts.length + 1, previousAttempts: red.previous } : {}),
    ...judging(ctx, run, red),
    runGate: check?.runGate ?? gateIn(ctx, run),
    volatileRoots: [run.workspace.root, ctx.scratch],
  });
  // The loop's patch is against the pristine commit, and so are the alternatives the engine made
  // (each is what the green attempt started from, earlier attempts' changes included, with that
  // candidate instead of the chosen one).
  if (outcome.green) {
    if (outcome.chosen) ctx.candidates.chosen = outcome.chosen;
    ctx.candidates.alternatives = outcome.alternatives;
  }
  return withSpend(resultFromLoop(base, outcome, red));
}

function shared(ctx: RunContext, run: PreparedRun): AttemptShared {
  const { request } = ctx;
  return {
    sandbox: run.sandbox,
    config: run.config,
    goal: request.goal,
    ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
    hints: run.hints,
    signal: ctx.signal,
    deadline: run.deadline,
    artifacts: ctx.artifacts,
    onProgress: ctx.progress,
    flaky: run.flakiness.flaky.ids,
  };
}

/**
 * The authoritative gate in the workspace, within what is left of the time budget, as the loop sees
 * it: a test that passed at the baseline and fails now is run again before it counts, and the flaky
 * tests' failures count for nothing (docs/design.md §3.2.8).
 */
function gateIn(ctx: RunContext, run: PreparedRun) {
  const { flaky } = run.flakiness;
  const root = run.workspace.root;
  const timeLeft = () => Math.max(1000, run.deadline - Date.now());
  return async (log: AttemptLog) => {
    const gate = await run.suite.gate(root, timeLeft());
    log.section(`gate: ${run.suite.testCommand}`, gate.output);
    const known = flaky.ids.size;
    const reruns = await confirmNewFailures({
      gate,
      baseline: run.baseline.report,
      flaky,
      seen: 'attempt',
      cwd: root,
      testCommand: run.suite.testCommand,
      run: (command) => run.suite.gateWith(root, command, timeLeft()),
      deadline: run.deadline,
      signal: ctx.signal,
      log: log.add,
    });
    for (const rerun of reruns) log.section('gate: run again', rerun.output);
    if (flaky.ids.size > known) log.add(`flaky, not counted: ${[...flaky.ids].slice(known).join(', ')}`);
    return withoutFlaky(gate, flaky.ids);
  };
}

/** The constraints on each attempt's changes, and the pristine replay of a green one. */
function judging(ctx: RunContext, run: PreparedRun, red: RedPhaseOutcome | null) {
  const proof = red?.proof ?? null;
  const { workspace, config, policy } = run;
  // With a red test, its files stay exactly as written, and only the other changes meet the constraints.
  const withoutRedTests = (changes: FileChange[]) =>
    proof ? changes.filter((c) => !proof.testFiles.files.has(c.path)) : changes;
  const changesToCheck = async () => withoutRedTests(await workspace.changes());
  return {
    checkChanges: async (changes: FileChange[]) => [
      ...(proof ? await redTestFindings(proof, workspace) : []),
      ...checkConstraints(withoutRedTests(changes), policy, config.constraints),
    ],
    verify: async (patch: string, log: AttemptLog) =>
      replayPatch({
        mirror: run.created.mirror,
        seal: run.created.seal,
        baseSha: workspace.baseSha,
        patch,
        changes: await changesToCheck(),
        // The red test's run is the tests' baseline; what the runtime guard saw on the pristine code
        // (its processes and events) is the judged baseline's, which the red phase's gate does not load.
        baseline: proof ? { ...proof.gate.report, guard: run.baseline.report.guard ?? null } : run.baseline.report,
        baselinePassed: run.baseline.passed,
        flaky: run.flakiness.flaky,
        config,
        policy,
        suite: run.suite,
        scratchDir: ctx.scratch,
        log: log.add,
        logSection: (title, body) => log.section(title, body),
      }),
  };
}
