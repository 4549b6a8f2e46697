// The repair engine's candidates for a real bug, in its own order, without validating any: the
// bug's checkout set up and its baseline run (realBaseline), then fault localization (coverage
// included), candidate generation and ranking exactly as the engine does them, from the baseline's
// failing tests. rank-real.ts asks where the upstream fix stands among them; overfit.ts validates them all.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateResult } from '../../src/core/gate-result.ts';
import { DEFAULT_PROTECTED_PATHS } from '../../src/core/repo-config.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { createIgnore, walkFiles } from '../../src/workspace/file-walker.ts';
import { generateCandidates } from '../../src/engines/repair/generate-candidates.ts';
import { generatorFor } from '../../src/engines/repair/generators.ts';
import { localizeFaults } from '../../src/engines/repair/localize/localize-faults.ts';
import { optionNamesInTests } from '../../src/engines/repair/option-names.ts';
import { outputDifferences } from '../../src/engines/repair/output-differences.ts';
import { rankCandidates, type RankedCandidate } from '../../src/engines/repair/rank-candidates.ts';
import { MAX_LINES } from '../../src/engines/repair/plan-candidates.ts';
import { valueTypesInTests } from '../../src/engines/repair/value-types.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { createTestFileMatcher } from '../../src/workspace/path-policy.ts';
import { setUp, type RealBug } from './real-corpus.ts';
import { shell } from './workdir.ts';
import { packageScriptsNow } from '../../src/runners/package-scripts.ts';

/** A bug's checkout set up, and its baseline: what the engine starts from. */
export interface RealBaseline {
  /** The checkout's files as the workspace lists them: read before any run wrote coverage or caches. */
  files: string[];
  sandbox: Sandbox;
  signal: AbortSignal;
  gate: GateResult;
}

/** Lists the checkout in `dir`, runs the bug's setup there and its test command; a string when the setup fails. */
export function realBaseline(bug: RealBug, dir: string, timeoutMs: number): Promise<RealBaseline | string> {
  return projectBaseline(dir, bug.test, timeoutMs, () => setUp(bug, dir, (command, cwd) => shell(command, cwd, timeoutMs)));
}

/**
 * Any project's baseline: its files listed before anything runs (coverage and caches come later),
 * then `setUp` (a string: why it failed), then `test` on the process sandbox.
 */
export async function projectBaseline(
  dir: string,
  test: string,
  timeoutMs: number,
  setUp: () => Promise<string | null> = async () => null,
): Promise<RealBaseline | string> {
  const gitignore = join(dir, '.gitignore');
  const files = await walkFiles(dir, createIgnore(existsSync(gitignore) ? readFileSync(gitignore, 'utf8') : null));
  const setupProblem = await setUp();
  if (setupProblem) return setupProblem;
  const sandbox = createProcessSandbox();
  const signal = new AbortController().signal;
  const gate = await runGate(sandbox, { command: test, cwd: dir, timeoutMs, signal });
  return { files, sandbox, signal, gate };
}

export interface RealCandidates {
  suspicious: Awaited<ReturnType<typeof localizeFaults>>;
  ranked: RankedCandidate[];
  /** The original text of each file a candidate changes. */
  sources: Map<string, string>;
  /** What the generators could not do (a file that does not parse, …). */
  problems: string[];
}

export async function realCandidates(
  dir: string,
  { files, gate, sandbox, signal }: RealBaseline,
  testCommand: string,
): Promise<RealCandidates> {
  const failing = gate.report.tests.filter((t) => t.status === 'failed');
  const isTestFile = createTestFileMatcher(DEFAULT_PROTECTED_PATHS);
  const started = Date.now();
  const suspicious = await localizeFaults({
    root: dir,
    files,
    failing,
    output: gate.output,
    hints: [],
    limit: 20_000,
    isTestFile,
    coverage: {
      sandbox,
      testCommand,
      tests: gate.report.tests,
      passedCount: gate.report.passed,
      packageScripts: packageScriptsNow(dir),
      env: {},
      suiteMs: gate.durationMs,
      deadline: started + 60_000,
      signal,
    },
  });
  const linesByFile = new Map<string, Set<number>>();
  for (const s of suspicious.slice(0, MAX_LINES)) linesByFile.set(s.file, (linesByFile.get(s.file) ?? new Set()).add(s.line));
  const optionNames = await optionNamesInTests(dir, failing, files.filter(isTestFile));
  const readSource = async (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : null);
  const { sources, candidates, problems } = await generateCandidates(readSource, linesByFile, {
    optionNames,
    valueTypes: valueTypesInTests(failing),
    outputDifferences: outputDifferences(failing),
  });
  const ranked = rankCandidates(
    candidates,
    suspicious,
    sources,
    5000,
    (file, text) => generatorFor(file)?.parses?.(file, text) ?? true,
  );
  return { suspicious, ranked, sources, problems };
}
