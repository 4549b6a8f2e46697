// Per-test spectra of a mocha or `node --test` suite from one run of the test command: a preloaded
// hook (node/fixloop_test_spectra.cjs) takes V8's precise coverage at each test's start and end. One
// process per test cost a suite run per test, so suites of more than a couple dozen tests, that is
// every real one, got no coverage at all.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SpectraInput } from './spectra-input.ts';
import type { TestSpectrum } from './ochiai.ts';
import { coveredLines, type V8Range } from './v8-coverage.ts';

const HOOK_DIR = fileURLToPath(new URL('./node/', import.meta.url));
const HOOK = join(HOOK_DIR, 'fixloop_test_spectra.cjs');

interface TestCoverage {
  title: string;
  state: 'passed' | 'failed' | 'skipped';
  scripts: { url: string; ranges: V8Range[] }[];
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
      mounts: [{ path: HOOK_DIR }, { path: dir, writable: true }],
      signal: input.signal,
    });
    const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort(byPidThenOrder);
    const sources = new Map<string, string | null>();
    const spectra: TestSpectrum[] = [];
    for (const file of files) {
      const test = JSON.parse(await readFile(join(dir, file), 'utf8')) as TestCoverage;
      if (test.state === 'skipped') continue;
      const lines = new Map<string, Set<number>>();
      for (const script of test.scripts) {
        const path = fileURLToPath(script.url);
        if (!sources.has(path)) sources.set(path, await readFile(path, 'utf8').catch(() => null));
        const source = sources.get(path);
        if (source == null) continue;
        const covered = coveredLines(source, script.ranges);
        if (covered.size > 0) lines.set(relative(input.root, path), covered);
      }
      spectra.push({ id: test.title, failed: test.state === 'failed', lines });
    }
    // Without a failing and a passing test, every covered line scores the same.
    return spectra.some((s) => s.failed) && spectra.some((s) => !s.failed) ? spectra : null;
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `<pid>-<n>.json`, in the order the tests ran. */
function byPidThenOrder(a: string, b: string): number {
  const [pa = 0, na = 0] = a.replace('.json', '').split('-').map(Number);
  const [pb = 0, nb = 0] = b.replace('.json', '').split('-').map(Number);
  return pa - pb || na - nb;
}
