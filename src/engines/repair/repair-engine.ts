// The embedded `repair` engine (docs/design.md §1.7): fault localization → candidates from repair
// templates → ranking → validation in parallel copies of the workspace. Deterministic, no network,
// no key, zero cost. It never runs the authoritative gate: the loop judges what it leaves.
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { type AttemptContext, type Engine, type EngineOutcome } from '../engine.ts';
import { ZERO_COST } from '../../core/cost.ts';
import type { RankedCandidate } from './rank-candidates.ts';
import { validateCandidates, type ValidationResult } from './validate-candidates.ts';
import { MAX_PLAUSIBLE } from './choose-plausible.ts';
import { planCandidates, type Plan } from './plan-candidates.ts';
import { applyBest, applyPartial, giveUp, stopReason } from './repair-outcomes.ts';

export interface RepairEngineOptions {
  parallelism?: number;
}

/** The state of the code an attempt starts from: the workspace's changes and the tests that fail on them. */
async function stateOf(ctx: AttemptContext, failing: readonly { id: string }[]): Promise<string> {
  const ids = failing
    .map((t) => t.id)
    .sort()
    .join('\n');
  return createHash('sha256')
    .update(await ctx.workspace.diff())
    .update('\0')
    .update(ids)
    .digest('hex');
}

export function createRepairEngine(options: RepairEngineOptions = {}): Engine {
  /**
   * What an attempt whose own time budget ran out leaves for the next one: the candidates nobody
   * validated, for the state of the code they were made for (the workspace's diff and the failing
   * tests), so that an attempt from another state starts afresh.
   */
  let unfinished: (Plan & { state: string }) | null = null;
  return {
    name: 'repair',
    async attempt(ctx: AttemptContext): Promise<EngineOutcome> {
      const started = Date.now();
      const ownDeadline = started + ctx.config.repair.timeBudget * 1000;
      const deadline = Math.min(ctx.deadline, ownDeadline);
      const stats = { suspiciousLines: 0, candidates: 0, validated: 0, testExecutions: 0, plausible: 0 };
      const testCommand = ctx.config.test.command;
      if (!testCommand) return giveUp('no test command', stats);
      const failing = ctx.lastGate.report.tests.filter((t) => t.status === 'failed');
      const state = await stateOf(ctx, failing);
      const resumed = unfinished?.state === state ? unfinished : null;
      unfinished = null;
      if (resumed)
        ctx.log(
          `repair: going on with the ${resumed.candidates.length} candidates the last attempt left (${resumed.validatedBefore} of ${resumed.ranked.length} validated)`,
        );
      const plan = resumed ?? (await planCandidates(ctx, { testCommand, failing, started, deadline, stats }));
      if (!('candidates' in plan)) return plan;
      stats.candidates = plan.candidates.length;

      const parallelism = options.parallelism ?? ctx.config.repair.parallelism ?? availableParallelism();
      const { result, rivalRanks } = await validatePlan(ctx, plan, { testCommand, failing, parallelism, deadline });
      stats.validated = result.validated;
      stats.testExecutions = result.testExecutions;
      stats.plausible = result.plausible.length;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const validated = plan.validatedBefore + result.validated;
      const overAttempts = plan.validatedBefore > 0 ? ' over several attempts' : '';

      const { problems } = plan;
      const notes = problems.length > 0 ? { notes: problems } : {};
      if (result.winner)
        return {
          ...(await applyBest(ctx, plan.ranked, result, `${result.testExecutions} test runs, ${seconds} s`, rivalRanks)),
          stats,
          ...notes,
        };
      if (result.partial) {
        const spent = `${validated} candidates${overAttempts}, ${result.testExecutions} test runs, ${seconds} s`;
        return { ...(await applyPartial(ctx, result.partial, spent)), stats, ...notes };
      }
      const generation = problems.length > 0 ? `; ${problems.join('; ')}` : '';
      // Its own budget (not the run's) ran out with candidates left: the next attempt goes on from there.
      if (result.stoppedBy === 'deadline' && result.remaining.length > 0 && ownDeadline < ctx.deadline) {
        unfinished = {
          ...plan,
          state,
          candidates: result.remaining,
          validatedBefore: plan.ranked.length - result.remaining.length,
        };
        const summary = `the attempt's time budget ran out (${plan.ranked.length - result.remaining.length} of ${plan.ranked.length} candidates validated${overAttempts}, ${result.testExecutions} test runs, ${seconds} s); ${result.remaining.length} left${generation}`;
        return { summary, cost: ZERO_COST, gaveUp: false, continues: true, stats, ...notes };
      }
      return {
        ...giveUp(
          `${stopReason(result.stoppedBy)} (${validated} of ${plan.ranked.length} candidates validated${overAttempts}, ${result.testExecutions} test runs, ${seconds} s)${generation}`,
          stats,
        ),
        ...notes,
      };
    },
  };
}

interface ValidatePlanInput {
  testCommand: string;
  failing: AttemptContext['lastGate']['report']['tests'];
  parallelism: number;
  deadline: number;
}

/**
 * The plan's candidates validated in parallel copies of the workspace, with the places in the
 * engine's order of the first plausible candidate's rivals past the cut (for the log and the report).
 */
async function validatePlan(
  ctx: AttemptContext,
  plan: Plan,
  input: ValidatePlanInput,
): Promise<{ result: ValidationResult; rivalRanks: Map<RankedCandidate, number> }> {
  const { testCommand, failing, parallelism, deadline } = input;
  const { focused, runTimeoutMs } = plan;
  ctx.log(
    `repair: validating ${plan.candidates.length} candidates${focused ? ` with the failing tests first: ${focused.command}` : ctx.checks ? ' with the checks, then the tests' : ' with the full suite'}`,
  );
  let lastLogged = 0;
  const rivalRanks = new Map<RankedCandidate, number>();
  const result = await validateCandidates({
    candidates: plan.candidates,
    workspace: ctx.workspace,
    sandbox: ctx.sandbox,
    testCommand,
    focused,
    failingIds: new Set(failing.map((t) => t.id)),
    failingCount: ctx.lastGate.report.parsed ? ctx.lastGate.report.failed : 1,
    env: ctx.config.env,
    parallelism,
    runTimeoutMs,
    deadline,
    signal: ctx.signal,
    ...(ctx.config.test.report ? { reportFile: ctx.config.test.report } : {}),
    ...(ctx.checks ? { checkGate: ctx.checks } : {}),
    // A check run's gate is its checks: no test of it is flaky (docs/design.md §3.2.8).
    ...(ctx.flaky && !ctx.checks ? { flaky: { ids: ctx.flaky, reruns: ctx.config.loop.flakyReruns } } : {}),
    // After the first candidate that passes, more for a while: the first is often not the right one.
    exploreMs: ctx.config.repair.exploreTime * 1000,
    maxPlausible: MAX_PLAUSIBLE,
    rivalsOf: (first) => {
      const rivals = plan.candidatesAt(first).filter(({ candidate }) => candidate.result !== first.result);
      if (rivals.length > 0)
        ctx.log(`repair: a first candidate passes; exploring its ${rivals.length} rivals at ${first.file}:${first.line} first`);
      return rivals.map(({ candidate, rank }) => {
        rivalRanks.set(candidate, rank);
        return candidate;
      });
    },
    onProgress: (count) => {
      ctx.countCandidates?.(count);
      const { validated } = count;
      if (validated - lastLogged >= 25) {
        lastLogged = validated;
        ctx.log(`repair: ${validated} candidates validated`);
      }
    },
  });
  return { result, rivalRanks };
}
