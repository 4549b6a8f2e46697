// The embedded `repair` engine (docs/design.md §1.7): fault localization → candidates from repair
// templates → ranking → validation in parallel copies of the workspace. Deterministic, no network,
// no key, zero cost. It never runs the authoritative gate: the loop judges what it leaves.
import { candidateRunTimeout } from '../../core/candidate-run-timeout.ts';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { type AttemptContext, type Engine, type EngineOutcome } from '../engine.ts';
import { ZERO_COST } from '../../core/cost.ts';
import { createTestFileMatcher } from '../../workspace/path-policy.ts';
import { optionNamesInTests } from './option-names.ts';
import { valueTypesInTests } from './value-types.ts';
import { outputDifferences } from './output-differences.ts';
import { generatorFor } from './generators.ts';
import { generateCandidates } from './generate-candidates.ts';
import { localizeFaults } from './localize/localize-faults.ts';
import { candidatesAt, rankCandidates, type RankedCandidate } from './rank-candidates.ts';
import { chooseFocusedCommand, type FocusedCommand, type FocusedCommandInput } from './focused-command.ts';
import { validateCandidates, type ValidationResult } from './validate-candidates.ts';
import { choosePlausible, MAX_PLAUSIBLE } from './choose-plausible.ts';

export interface RepairEngineOptions {
  parallelism?: number;
}

/**
 * Most suspicious lines turned into candidates. Generation is cheap (docs/benchmarks.md), and the
 * ranking (line score × template prior × size) decides what the validation budget is spent on: with
 * 60, a module whose lines all scored the same (imported by the failing test, no frame in it) was
 * tried only in its first lines.
 */
export const MAX_LINES = 400;

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

function giveUp(summary: string, stats: Record<string, number>): EngineOutcome {
  return { summary, cost: ZERO_COST, gaveUp: true, stats };
}

async function packageScripts(ctx: AttemptContext): Promise<Record<string, string>> {
  try {
    const pkg = JSON.parse(await ctx.workspace.readFile('package.json')) as { scripts?: Record<string, string> };
    return pkg.scripts ?? {};
  } catch {
    return {};
  }
}

/** What validation needs, made by localization, generation and ranking, or left by the last attempt. */
interface Plan {
  candidates: RankedCandidate[];
  /** Every candidate ranked from this state, in rank order (those of earlier attempts included). */
  ranked: RankedCandidate[];
  /** Validated from this state by earlier attempts. */
  validatedBefore: number;
  focused: FocusedCommand | null;
  problems: string[];
  runTimeoutMs: number;
  /** The candidates at one line, past the cut too, with their places in the engine's order (rank-candidates.ts `candidatesAt`). */
  candidatesAt: (at: { file: string; line: number }) => Array<{ candidate: RankedCandidate; rank: number }>;
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

      const { focused, problems, runTimeoutMs } = plan;
      ctx.log(
        `repair: validating ${plan.candidates.length} candidates${focused ? ` with the failing tests first: ${focused.command}` : ' with the full suite'}`,
      );
      let lastLogged = 0;
      // Places in the engine's order of the first plausible candidate's rivals past the cut (for the log and the report).
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
        parallelism: options.parallelism ?? ctx.config.repair.parallelism ?? availableParallelism(),
        runTimeoutMs,
        deadline,
        signal: ctx.signal,
        ...(ctx.config.test.report ? { reportFile: ctx.config.test.report } : {}),
        // After the first candidate that passes, more for a while: the first is often not the right one.
        exploreMs: ctx.config.repair.exploreTime * 1000,
        maxPlausible: MAX_PLAUSIBLE,
        rivalsOf: (first) => {
          const rivals = plan.candidatesAt(first).filter(({ candidate }) => candidate.result !== first.result);
          if (rivals.length > 0)
            ctx.log(
              `repair: a first candidate passes; exploring its ${rivals.length} rivals at ${first.file}:${first.line} first`,
            );
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
      stats.validated = result.validated;
      stats.testExecutions = result.testExecutions;
      stats.plausible = result.plausible.length;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const validated = plan.validatedBefore + result.validated;
      const overAttempts = plan.validatedBefore > 0 ? ' over several attempts' : '';

      const notes = problems.length > 0 ? { notes: problems } : {};
      if (result.winner)
        return {
          ...(await applyBest(ctx, plan, result, `${result.testExecutions} test runs, ${seconds} s`, rivalRanks)),
          stats,
          ...notes,
        };
      if (result.partial) {
        const p = result.partial.candidate;
        await ctx.workspace.writeFile(p.file, p.result);
        return {
          summary: `partial: ${p.description} leaves ${result.partial.failing} failing (${validated} candidates${overAttempts}, ${result.testExecutions} test runs, ${seconds} s)`,
          cost: ZERO_COST,
          gaveUp: false,
          stats,
          ...notes,
        };
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
      const why =
        result.stoppedBy === 'deadline'
          ? 'the time budget ran out'
          : result.stoppedBy === 'aborted'
            ? 'the run was cancelled'
            : 'no candidate passed the tests';
      return {
        ...giveUp(
          `${why} (${validated} of ${plan.ranked.length} candidates validated${overAttempts}, ${result.testExecutions} test runs, ${seconds} s)${generation}`,
          stats,
        ),
        ...notes,
      };
    },
  };
}

/** The best of the candidates that passed applied to the workspace, and the others as alternatives. */
async function applyBest(
  ctx: AttemptContext,
  plan: Plan,
  result: ValidationResult,
  spent: string,
  rivalRanks: ReadonlyMap<RankedCandidate, number>,
): Promise<EngineOutcome> {
  const rankOf = (c: RankedCandidate) => plan.ranked.indexOf(c) + 1 || (rivalRanks.get(c) ?? 0);
  const choice = await choosePlausible(ctx.workspace, result.plausible, rankOf);
  const w = choice.chosen;
  await ctx.workspace.writeFile(w.file, w.result);
  for (const a of choice.alternatives) ctx.log(`repair: also passes: ${a.summary}${a.weakens ? `; ${a.weakens}` : ''}`);
  const first = result.plausible[0];
  const among =
    result.plausible.length > 1
      ? `chosen among ${result.plausible.length} plausible${first && first !== w ? `, preferred to candidate ${rankOf(first)}, which weakens a check` : ''}, `
      : '';
  return {
    summary: `${w.description} (candidate ${rankOf(w)} of ${plan.ranked.length}, ${among}${spent})`,
    cost: ZERO_COST,
    gaveUp: false,
    chosen: { summary: choice.summary, ...(choice.weakens ? { weakens: choice.weakens } : {}) },
    alternatives: choice.alternatives,
  };
}

interface PlanInput {
  testCommand: string;
  failing: AttemptContext['lastGate']['report']['tests'];
  started: number;
  deadline: number;
  stats: Record<string, number>;
}

/** Fault localization, candidates from the templates, their ranking and the focused command: or why there is nothing to validate. */
async function planCandidates(ctx: AttemptContext, input: PlanInput): Promise<Plan | EngineOutcome> {
  const { testCommand, failing, started, deadline, stats } = input;
  const isTestFile = createTestFileMatcher(ctx.config.paths.protected);
  const files = await ctx.workspace.listFiles();
  const scripts = await packageScripts(ctx);
  const suiteMs = Math.max(ctx.lastGate.durationMs, ctx.baseline.durationMs);
  const suspicious = await localizeFaults({
    root: ctx.workspace.root,
    files,
    failing,
    output: ctx.lastGate.output,
    hints: ctx.hints,
    isTestFile,
    // Coverage may take a fifth of the engine's budget; past that, the other signals decide.
    coverage: {
      sandbox: ctx.sandbox,
      testCommand,
      tests: ctx.lastGate.report.tests,
      passedCount: ctx.lastGate.report.passed,
      packageScripts: scripts,
      env: ctx.config.env,
      suiteMs,
      deadline: started + (deadline - started) / 5,
      signal: ctx.signal,
    },
  });
  stats.suspiciousLines = suspicious.length;
  if (suspicious.length === 0) return giveUp('no suspicious source line: the failures point at no source file', stats);
  ctx.log(
    `repair: ${suspicious.length} suspicious lines; top: ${suspicious
      .slice(0, 5)
      .map((s) => `${s.file}:${s.line} (${s.score.toFixed(2)} ${s.signals.join('+')})`)
      .join(', ')}`,
  );

  const linesByFile = new Map<string, Set<number>>();
  for (const s of suspicious.slice(0, MAX_LINES)) linesByFile.set(s.file, (linesByFile.get(s.file) ?? new Set()).add(s.line));
  const optionNames = await optionNamesInTests(ctx.workspace.root, failing, files.filter(isTestFile));
  const { sources, candidates, problems } = await generateCandidates(
    (file) => ctx.workspace.readFile(file).catch(() => null),
    linesByFile,
    { optionNames, valueTypes: valueTypesInTests(failing), outputDifferences: outputDifferences(failing) },
  );
  for (const problem of problems) ctx.log(`repair: ${problem}`);
  stats.candidates = candidates.length;
  const parses = (file: string, text: string) => generatorFor(file)?.parses?.(file, text) ?? true;
  const ranked = rankCandidates(candidates, suspicious, sources, ctx.config.repair.maxCandidates, parses);
  if (ranked.length === 0) {
    const why =
      problems.length > 0 ? `no candidate to try: ${problems.join('; ')}` : 'no repair template applies to the suspicious lines';
    return { ...giveUp(why, stats), notes: problems };
  }
  ctx.log(`repair: ${ranked.length} of ${candidates.length} candidates ranked for validation`);

  // When every test fails, "the failing tests first" is the whole suite: one run is enough.
  const everyTestFails = ctx.lastGate.report.parsed && failing.length >= ctx.lastGate.report.total;
  const runTimeoutMs = candidateRunTimeout(suiteMs, ctx.config.test.timeout * 1000);
  const focused = everyTestFails
    ? null
    : await focusedCommandFor(ctx, { testCommand, failing, packageScripts: scripts, timeoutMs: runTimeoutMs });
  return {
    candidates: ranked,
    ranked,
    validatedBefore: 0,
    focused,
    problems,
    runTimeoutMs,
    candidatesAt: (at) => candidatesAt(candidates, suspicious, sources, at, parses),
  };
}

function focusedCommandFor(
  ctx: AttemptContext,
  input: Pick<FocusedCommandInput, 'testCommand' | 'failing' | 'packageScripts' | 'timeoutMs'>,
): Promise<FocusedCommand | null> {
  const { sandbox, workspace, config, signal, log } = ctx;
  const report = config.test.report ? { reportFile: config.test.report } : {};
  return chooseFocusedCommand({
    ...input,
    sandbox,
    root: workspace.root,
    linkedFolders: workspace.linkedFolders,
    env: config.env,
    ...report,
    signal,
    log,
  });
}
