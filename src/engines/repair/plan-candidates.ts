// What an attempt of the repair engine validates (docs/design.md §1.7): fault localization, candidates from
// the repair templates at the most suspicious lines, their ranking, and the command that runs the
// failing tests first. Or, when that leaves nothing to try, why.
import { candidateRunTimeout } from '../../core/candidate-run-timeout.ts';
import type { AttemptContext, EngineOutcome } from '../engine.ts';
import { createTestFileMatcher } from '../../workspace/path-policy.ts';
import { optionNamesInTests } from './option-names.ts';
import { valueTypesInTests } from './value-types.ts';
import { outputDifferences } from './output-differences.ts';
import { generatorFor } from './generators.ts';
import { generateCandidates } from './generate-candidates.ts';
import { localizeFaults } from './localize/localize-faults.ts';
import { diagnosticLines } from './localize/diagnostic-lines.ts';
import { candidatesAt, rankCandidates, type RankedCandidate } from './rank-candidates.ts';
import { chooseFocusedCommand, type FocusedCommand, type FocusedCommandInput } from './focused-command.ts';
import { giveUp } from './repair-outcomes.ts';
import { scriptsOfPackageJson } from '../../runners/package-scripts.ts';

/**
 * Most suspicious lines turned into candidates. Generation is cheap (docs/benchmarks.md), and the
 * ranking (line score × template prior × size) decides what the validation budget is spent on: with
 * 60, a module whose lines all scored the same (imported by the failing test, no frame in it) was
 * tried only in its first lines.
 */
export const MAX_LINES = 400;

/** What validation needs, made by localization, generation and ranking, or left by the last attempt. */
export interface Plan {
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

export interface PlanInput {
  testCommand: string;
  failing: AttemptContext['lastGate']['report']['tests'];
  started: number;
  deadline: number;
  stats: Record<string, number>;
}

/** The scripts of the repository's package.json: none when it has none or cannot be read. */

/** Fault localization, candidates from the templates, their ranking and the focused command: or why there is nothing to validate. */
export async function planCandidates(ctx: AttemptContext, input: PlanInput): Promise<Plan | EngineOutcome> {
  const { testCommand, failing, started, deadline, stats } = input;
  const isTestFile = createTestFileMatcher(ctx.config.paths.protected);
  const files = await ctx.workspace.listFiles();
  const scripts = scriptsOfPackageJson(await ctx.workspace.readFile('package.json').catch(() => null));
  const suiteMs = Math.max(ctx.lastGate.durationMs, ctx.baseline.durationMs);
  // A check run's diagnostics name their lines; a suite's failures are localized.
  const suspicious = ctx.checks
    ? diagnosticLines(failing, files, isTestFile)
    : await localizeFaults({
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
  if (suspicious.length === 0)
    return giveUp(
      ctx.checks
        ? 'no diagnostic names a line of a source file a fix may change'
        : 'no suspicious source line: the failures point at no source file',
      stats,
    );
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
  // A check run's candidates run the checks (AttemptContext.checks), which no runner narrows.
  const everyTestFails = Boolean(ctx.checks) || (ctx.lastGate.report.parsed && failing.length >= ctx.lastGate.report.total);
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
