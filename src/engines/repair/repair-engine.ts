// The embedded `repair` engine (DESIGN.md §1.7): fault localization → candidates from repair
// templates → ranking → validation in parallel copies of the workspace. Deterministic, no network,
// no key, zero cost. It never runs the authoritative gate: the loop judges what it leaves.
import { availableParallelism } from 'node:os';
import { type AttemptContext, type Engine, type EngineOutcome } from '../engine.ts';
import { ZERO_COST } from '../../core/cost.ts';
import { createTestFileMatcher } from '../../workspace/path-policy.ts';
import { GenerationError, type Candidate, type GenerationContext } from './candidate.ts';
import { optionNamesInTests } from './option-names.ts';
import { generatorFor } from './generators.ts';
import { localizeFaults } from './localize/localize-faults.ts';
import { rankCandidates } from './rank-candidates.ts';
import { chooseFocusedCommand, type FocusedCommand, type FocusedCommandInput } from './focused-command.ts';
import { validateCandidates } from './validate-candidates.ts';

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

export function createRepairEngine(options: RepairEngineOptions = {}): Engine {
  return {
    name: 'repair',
    async attempt(ctx: AttemptContext): Promise<EngineOutcome> {
      const started = Date.now();
      const deadline = Math.min(ctx.deadline, started + ctx.config.repair.timeBudget * 1000);
      const stats = { suspiciousLines: 0, candidates: 0, validated: 0, testExecutions: 0 };
      const testCommand = ctx.config.test.command;
      if (!testCommand) return giveUp('no test command', stats);
      const failing = ctx.lastGate.report.tests.filter((t) => t.status === 'failed');
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
        coverage: { sandbox: ctx.sandbox, testCommand, tests: ctx.lastGate.report.tests, passedCount: ctx.lastGate.report.passed, packageScripts: scripts, env: ctx.config.env, suiteMs, deadline: started + (deadline - started) / 5, signal: ctx.signal },
      });
      stats.suspiciousLines = suspicious.length;
      if (suspicious.length === 0) return giveUp('no suspicious source line: the failures point at no source file', stats);
      ctx.log(`repair: ${suspicious.length} suspicious lines; top: ${suspicious.slice(0, 5).map((s) => `${s.file}:${s.line} (${s.score.toFixed(2)} ${s.signals.join('+')})`).join(', ')}`);

      const linesByFile = new Map<string, Set<number>>();
      for (const s of suspicious.slice(0, MAX_LINES)) linesByFile.set(s.file, (linesByFile.get(s.file) ?? new Set()).add(s.line));
      const optionNames = await optionNamesInTests(ctx.workspace.root, failing, files.filter(isTestFile));
      const { sources, candidates, problems } = await generateCandidates(ctx, linesByFile, { optionNames });
      for (const problem of problems) ctx.log(`repair: ${problem}`);
      stats.candidates = candidates.length;
      const ranked = rankCandidates(candidates, suspicious, sources, ctx.config.repair.maxCandidates, (file, text) => generatorFor(file)?.parses?.(file, text) ?? true);
      if (ranked.length === 0) {
        const why = problems.length > 0 ? `no candidate to try: ${problems.join('; ')}` : 'no repair template applies to the suspicious lines';
        return { ...giveUp(why, stats), notes: problems };
      }

      // When every test fails, "the failing tests first" is the whole suite: one run is enough.
      const everyTestFails = ctx.lastGate.report.parsed && failing.length >= ctx.lastGate.report.total;
      // A mutation can make code loop forever: a run may take a few times the suite's own time, no more.
      const runTimeoutMs = Math.min(ctx.config.test.timeout * 1000, Math.max(3000, suiteMs * 5 + 1000));
      const focused = everyTestFails ? null : await focusedCommandFor(ctx, { testCommand, failing, packageScripts: scripts, timeoutMs: runTimeoutMs });
      ctx.log(`repair: validating ${ranked.length} of ${candidates.length} candidates${focused ? ` with the failing tests first: ${focused.command}` : ' with the full suite'}`);
      let lastLogged = 0;
      const result = await validateCandidates({
        candidates: ranked,
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
        onProgress: (validated) => {
          if (validated - lastLogged >= 25) {
            lastLogged = validated;
            ctx.log(`repair: ${validated} candidates validated`);
          }
        },
      });
      stats.validated = result.validated;
      stats.testExecutions = result.testExecutions;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);

      const notes = problems.length > 0 ? { notes: problems } : {};
      if (result.winner) {
        const w = result.winner;
        await ctx.workspace.writeFile(w.file, w.result);
        const rank = ranked.indexOf(w) + 1;
        return { summary: `${w.description} (candidate ${rank} of ${ranked.length}, ${result.testExecutions} test runs, ${seconds} s)`, cost: ZERO_COST, gaveUp: false, stats, ...notes };
      }
      if (result.partial) {
        const p = result.partial.candidate;
        await ctx.workspace.writeFile(p.file, p.result);
        return { summary: `partial: ${p.description} leaves ${result.partial.failing} failing (${result.validated} candidates, ${result.testExecutions} test runs, ${seconds} s)`, cost: ZERO_COST, gaveUp: false, stats, ...notes };
      }
      const why = result.stoppedBy === 'deadline' ? 'the time budget ran out' : result.stoppedBy === 'aborted' ? 'the run was cancelled' : 'no candidate passed the tests';
      const generation = problems.length > 0 ? `; ${problems.join('; ')}` : '';
      return { ...giveUp(`${why} (${result.validated} of ${ranked.length} candidates validated, ${result.testExecutions} test runs, ${seconds} s)${generation}`, stats), ...notes };
    },
  };
}

function focusedCommandFor(ctx: AttemptContext, input: Pick<FocusedCommandInput, 'testCommand' | 'failing' | 'packageScripts' | 'timeoutMs'>): Promise<FocusedCommand | null> {
  const { sandbox, workspace, config, signal, log } = ctx;
  const report = config.test.report ? { reportFile: config.test.report } : {};
  return chooseFocusedCommand({ ...input, sandbox, root: workspace.root, linkedFolders: workspace.linkedFolders, env: config.env, ...report, signal, log });
}

interface Generated {
  sources: Map<string, string>;
  candidates: Candidate[];
  /** Generators that could not do their work, one sentence each. */
  problems: string[];
}

async function generateCandidates(ctx: AttemptContext, linesByFile: ReadonlyMap<string, Set<number>>, context: GenerationContext): Promise<Generated> {
  const generated: Generated = { sources: new Map(), candidates: [], problems: [] };
  for (const [file, lines] of [...linesByFile].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const generator = generatorFor(file);
    if (!generator) continue;
    const source = await ctx.workspace.readFile(file).catch(() => null);
    if (source === null) continue;
    generated.sources.set(file, source);
    try {
      generated.candidates.push(...(await generator.generate(file, source, lines, context)));
    } catch (error) {
      if (!(error instanceof GenerationError)) throw error;
      generated.problems.push(error.message);
      generated.candidates.push(...error.candidates);
    }
  }
  return generated;
}
