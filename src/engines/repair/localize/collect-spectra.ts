// Per-test line coverage, when it is cheap, as the runner's descriptor says it is taken (its
// `coverage`, src/runners/): pytest in one run with a small tracing plugin (python/); mocha, jest,
// vitest and node's test runner in one run with V8 coverage taken at each test's start and end
// (hooked-spectra.ts; jest's transformed code read through its source maps). Where node's runner gives no per-test
// events (an older Node), one run per test selected through the runner's own filter (directly or
// through npm scripts), only when those runs fit the budget.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { focusedTestCommand } from '../../../runners/focused-test-command.ts';
import { directRunnerOf, runnerOf } from '../../../runners/registry.ts';
import type { TestSpectrum } from './ochiai.ts';
import type { SpectraInput } from './spectra-input.ts';
import { coveredLines, type V8Script } from './v8-coverage.ts';
import { hookedSpectra } from './hooked-spectra.ts';

export type { SpectraInput } from './spectra-input.ts';

const PLUGIN_DIR = fileURLToPath(new URL('./python/', import.meta.url));
/** The tracing plugin's module, in PLUGIN_DIR. */
const PLUGIN = 'fixloop_line_tracer';
const MAX_NODE_RUNS = 24;

export async function collectSpectra(input: SpectraInput): Promise<TestSpectrum[] | null> {
  // Without a passing test, every covered line scores the same: coverage would tell nothing.
  if (input.passedCount === 0) return null;
  // A plugin is loaded by arguments at the command's end: only a single direct invocation takes them.
  const direct = /[;&|]/.test(input.testCommand) ? null : directRunnerOf(input.testCommand);
  if (direct?.coverage?.kind === 'python-plugin') return pluginSpectra(input, direct.coverage.argument(PLUGIN));
  const coverage = runnerOf(input.testCommand, input.packageScripts)?.coverage;
  if (coverage?.kind !== 'node-preload') return null;
  return coverage.runPerTest ? ((await hookedSpectra(input)) ?? v8Spectra(input)) : hookedSpectra(input);
}

async function pluginSpectra(input: SpectraInput, pluginArgument: string): Promise<TestSpectrum[] | null> {
  if (Date.now() + input.suiteMs * 3 > input.deadline) return null;
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-spectra-'));
  try {
    const out = join(dir, 'coverage.json');
    await input.sandbox.run({
      command: `${input.testCommand} ${pluginArgument}`,
      cwd: input.root,
      timeoutMs: Math.max(1000, input.deadline - Date.now()),
      // No bytecode cache: the plugin's folder belongs to fixloop, not to the repository's tests.
      env: {
        ...input.env,
        PYTHONPATH: PLUGIN_DIR,
        PYTHONDONTWRITEBYTECODE: '1',
        FIXLOOP_COVERAGE_ROOT: input.root,
        FIXLOOP_COVERAGE_OUT: out,
      },
      mounts: [{ path: PLUGIN_DIR }, { path: dir, writable: true }],
      signal: input.signal,
    });
    const data = JSON.parse(await readFile(out, 'utf8')) as {
      tests: Record<string, { outcome: string; lines: Record<string, number[]> }>;
    };
    return Object.entries(data.tests)
      .filter(([, t]) => t.outcome !== 'skipped')
      .map(([id, t]) => ({
        id,
        failed: t.outcome === 'failed',
        lines: new Map(Object.entries(t.lines).map(([f, ls]) => [f, new Set(ls)])),
      }));
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function v8Spectra(input: SpectraInput): Promise<TestSpectrum[] | null> {
  const tests = input.tests.filter((t) => t.status !== 'skipped');
  const names = new Set(tests.map((t) => t.name));
  // Each run is selected by name: only unambiguous names give a clean spectrum.
  if (tests.length < 2 || tests.length > MAX_NODE_RUNS || names.size !== tests.length) return null;
  if (Date.now() + tests.length * input.suiteMs * 1.5 > input.deadline) return null;
  const spectra: TestSpectrum[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-spectra-'));
  try {
    for (const [i, test] of tests.entries()) {
      if (Date.now() > input.deadline || input.signal.aborted) return null;
      const coverageDir = join(dir, String(i));
      // The runner's own selection of this one test (an unanchored name pattern: a test whose name
      // is part of another's also runs that one, which only blurs its spectrum).
      const command = focusedTestCommand(input.testCommand, [test], input.packageScripts);
      if (!command) return null;
      await input.sandbox.run({
        command,
        cwd: input.root,
        timeoutMs: Math.max(1000, Math.min(input.suiteMs * 4 + 2000, input.deadline - Date.now())),
        env: { ...input.env, NODE_V8_COVERAGE: coverageDir },
        mounts: [{ path: dir, writable: true }],
        signal: input.signal,
      });
      const lines = new Map<string, Set<number>>();
      for (const file of await readdir(coverageDir).catch(() => [])) {
        const data = JSON.parse(await readFile(join(coverageDir, file), 'utf8')) as { result: V8Script[] };
        for (const script of data.result) {
          if (!script.url.startsWith('file://')) continue;
          const path = fileURLToPath(script.url);
          const rel = relative(input.root, path);
          if (rel.startsWith('..') || rel.includes('node_modules')) continue;
          const source = await readFile(path, 'utf8').catch(() => null);
          if (source === null) continue;
          const covered = coveredLines(
            source,
            script.functions.flatMap((f) => f.ranges),
          );
          lines.set(rel, new Set([...(lines.get(rel) ?? []), ...covered]));
        }
      }
      spectra.push({ id: test.id, failed: test.status === 'failed', lines });
    }
    return spectra;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
