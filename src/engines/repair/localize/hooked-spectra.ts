// Per-test spectra of a mocha, jest or `node --test` suite from one run of the test command: a
// preloaded hook (spectra-hook/spectra-preload.cjs) takes V8's precise coverage at each test's start and
// end; what jest transformed is read through its inline source map. One
// process per test cost a suite run per test, so suites of more than a couple dozen tests, that is
// every real one, got no coverage at all.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SpectraInput } from './spectra-input.ts';
import type { TestSpectrum } from './ochiai.ts';
import { coveredLines, type V8Range } from './v8-coverage.ts';
import { inlineSourceMap, originalLines } from './source-maps.ts';
import { alignedLines, textAlignment } from './text-aligned-lines.ts';
import { TEST_EVENTS_DIR } from '../../../runners/node-guard.ts';

// The hook follows the runners' tests with the runtime guard's module, required where it is.
const HOOK_DIR = fileURLToPath(new URL('./spectra-hook/', import.meta.url));
const HOOK = join(HOOK_DIR, 'spectra-preload.cjs');

interface TestCoverage {
  title: string;
  state: 'passed' | 'failed' | 'skipped';
  /** `url`: a file URL or a plain path; `source`: the code that ran, when a runner transformed it. */
  scripts: { url: string; ranges: V8Range[]; source?: string }[];
}

export async function hookedSpectra(input: SpectraInput): Promise<TestSpectrum[] | null> {
  // Precise coverage slows the code under test a little: room for two suite runs, or none.
  if (Date.now() + input.suiteMs * 2 > input.deadline) return null;
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-spectra-'));
  try {
    await input.sandbox.run({
      command: input.testCommand,
      cwd: input.root,
      timeoutMs: Math.max(1000, input.deadline - Date.now()),
      env: {
        ...input.env,
        // Kept: the project's own NODE_OPTIONS (a loader, a memory limit) still apply.
        NODE_OPTIONS: [input.env.NODE_OPTIONS, `--require ${HOOK}`].filter(Boolean).join(' '),
        FIXLOOP_SPECTRA_OUT: dir,
        FIXLOOP_SPECTRA_ROOT: input.root,
      },
      mounts: [{ path: HOOK_DIR }, { path: TEST_EVENTS_DIR }, { path: dir, writable: true }],
      signal: input.signal,
    });
    const written = await readdir(dir);
    const files = written.filter((f) => TEST_FILE.test(f)).sort(byPidThenOrder);
    // What the processes a test spawned ran (best-effort coverage, whole functions), by that test's file.
    const spawned = new Map<string, string[]>();
    for (const f of written) {
      const test = CHILD_FILE.exec(f)?.[1];
      if (test) spawned.set(`${test}.json`, [...(spawned.get(`${test}.json`) ?? []), f]);
    }
    const sources = new Map<string, string | null>();
    // The code a transforming runner (jest) ran, by path, as the hook sent it with its first test.
    const executed = new Map<string, { code: string; toOriginal: (lines: Set<number>) => Set<number> }>();
    const spectra: TestSpectrum[] = [];
    for (const file of files) {
      const test = JSON.parse(await readFile(join(dir, file), 'utf8')) as TestCoverage;
      if (test.state === 'skipped') continue;
      const lines = new Map<string, Set<number>>();
      const children = await Promise.all((spawned.get(file) ?? []).map((f) => childScripts(join(dir, f))));
      for (const script of [...test.scripts, ...children.flat()]) {
        const path = script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url;
        if (!sources.has(path)) sources.set(path, await readFile(path, 'utf8').catch(() => null));
        const source = sources.get(path);
        if (source == null) continue;
        if (script.source !== undefined && script.source !== source)
          executed.set(path, { code: script.source, toOriginal: tracer(script.source, source, path) });
        const ran = executed.get(path);
        const covered = ran ? ran.toOriginal(coveredLines(ran.code, script.ranges)) : coveredLines(source, script.ranges);
        const key = relative(input.root, path);
        if (covered.size > 0) lines.set(key, new Set([...(lines.get(key) ?? []), ...covered]));
      }
      spectra.push({ id: test.title, failed: test.state === 'failed', lines });
    }
    // Without a failing and a passing test that ran some line, every covered line scores the same.
    const ranCode = spectra.filter((s) => s.lines.size > 0);
    return ranCode.some((s) => s.failed) && ranCode.some((s) => !s.failed) ? spectra : null;
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * How lines of the code a runner transformed become the file's own: through the inline source map
 * the transform appended (jest's babel, vite-node), else by their text (vitest 4 on keeps its maps
 * in the main process).
 */
function tracer(code: string, source: string, path: string): (lines: Set<number>) => Set<number> {
  const map = inlineSourceMap(code);
  if (map) return (lines) => originalLines(code, lines, map, path);
  let alignment: Map<number, number> | null = null;
  return (lines) => alignedLines(lines, (alignment ??= textAlignment(code, source)));
}

/** What a spawned process ran; none when its file is unreadable (a child killed while writing it at exit). */
async function childScripts(path: string): Promise<TestCoverage['scripts']> {
  try {
    return (JSON.parse(await readFile(path, 'utf8')) as Pick<TestCoverage, 'scripts'>).scripts;
  } catch {
    return [];
  }
}

/**
 * A test's own file, `<pid>-<n>.json` (`<pid>t<thread>-<n>.json` from a worker thread), and one a
 * process it spawned wrote, `<pid>-<n>.child-<pid>.json`.
 */
const TEST_FILE = /^(\d+)(?:t(\d+))?-(\d+)\.json$/;
const CHILD_FILE = /^(\d+(?:t\d+)?-\d+)\.child-\d+\.json$/;

/** `<pid>[t<thread>]-<n>.json`, in the order each thread ran its tests. */
function byPidThenOrder(a: string, b: string): number {
  const [pa = 0, ta = 0, na = 0] = (TEST_FILE.exec(a) ?? []).slice(1).map((n) => Number(n ?? 0));
  const [pb = 0, tb = 0, nb = 0] = (TEST_FILE.exec(b) ?? []).slice(1).map((n) => Number(n ?? 0));
  return pa - pb || ta - tb || na - nb;
}
