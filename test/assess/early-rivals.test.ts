// The search for rivals begun beside the look: it runs candidates in its own checkout while the look
// has the first, the first joins it only once the look is done and wants it, and a search not
// wanted stops after the run under way. A stand-in runner reads each checkout as a real one would.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { standInGate, standInSuite } from '../support/stand-in-suite.ts';
import type { RivalBasis } from '../../src/assess/assess-rivals.ts';
import { beginRivalSearch } from '../../src/assess/early-rivals.ts';
import type { ProbeCheckout } from '../../src/assess/probe-checkout.ts';

const ORIGINAL = 'export const f = (a, b) => a < b;\n';
const PATCH = 'export const f = (a, b) => a <= b;\n';
/** What the look leaves in its checkout: the original, instrumented. */
const LOOKED = '/* probed */ export const f = (a, b) => a < b;\n';

let first: string;
let second: string;
beforeEach(async () => {
  first = await mkdtemp(join(tmpdir(), 'fixloop-early-first-'));
  second = await mkdtemp(join(tmpdir(), 'fixloop-early-second-'));
  await writeFile(join(first, 'f.js'), LOOKED);
  await writeFile(join(second, 'f.js'), ORIGINAL);
});
afterEach(async () => {
  await rm(first, { recursive: true, force: true });
  await rm(second, { recursive: true, force: true });
});

/** Each run takes `runMs`, and passes when f.js is the patch or a candidate named `pass…`; every run is noted with where it ran. */
function runner(runs: Array<{ dir: string; text: string }>, runMs: number): SuiteRunner {
  return standInSuite(async (cwd) => {
    const text = await readFile(join(cwd, 'f.js'), 'utf8');
    runs.push({ dir: cwd, text: text.trim() });
    await new Promise((resolve) => setTimeout(resolve, runMs));
    return standInGate(text === PATCH || text.includes('pass'));
  });
}

function basis(suite: SuiteRunner, candidates: string[]): RivalBasis {
  const checkout = { dir: first } as ProbeCheckout;
  return {
    checkout,
    originals: new Map([['f.js', ORIGINAL]]),
    written: new Map([['f.js', ORIGINAL]]),
    chosen: { name: 'patch', files: new Map([['f.js', PATCH]]) },
    suite,
    focused: ['npx vitest run f.test.js'],
    fixed: [],
    testFiles: [],
    max: 3,
    left: () => 60_000,
    log: () => undefined,
    source: {
      candidates: async () => candidates.map((name) => ({ file: 'f.js', text: `// ${name}\n`, summary: name })),
      weakens: async (found: readonly unknown[]) => found.map(() => null),
    },
  };
}

const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds, looking every 10 ms. */
async function waitFor(done: () => boolean): Promise<void> {
  while (!done()) await until(10);
}

describe('the rival search begun beside the look', () => {
  it('runs candidates in its own checkout while the look has the first, which joins it once the look wants the search', async () => {
    const runs: Array<{ dir: string; text: string }> = [];
    const candidates = ['fail-1', 'fail-2', 'pass-1', 'fail-3', 'fail-4', 'pass-2', 'fail-5', 'fail-6'];
    const early = beginRivalSearch(
      basis(runner(runs, 30), candidates),
      async () => second,
      () => 60_000,
    );
    await until(100);
    // The look still runs: nothing of the search touched its checkout.
    expect(await readFile(join(first, 'f.js'), 'utf8')).toBe(LOOKED);
    expect(runs.every((run) => run.dir === second)).toBe(true);
    const begun = await early.want(new Map([['f.js', ORIGINAL]]), Date.now() + 60_000);
    if (!begun?.searcher) throw new Error('the search did not begin');
    const found = await begun.first;
    expect(found.rivals.map((r) => r.info.summary)).toEqual(['pass-1', 'pass-2']);
    expect(begun.searcher.tried).toBe(candidates.length);
    // The patch first, then each candidate once, in one checkout or the other.
    expect(runs[0]).toEqual({ dir: second, text: PATCH.trim() });
    expect(
      runs
        .slice(1)
        .map((run) => run.text)
        .sort(),
    ).toEqual(candidates.map((c) => `// ${c}`).sort());
    expect(runs.some((run) => run.dir === first)).toBe(true);
    await early.settle();
    // Both checkouts as the original has them; the search's own is its maker's to remove.
    expect(await readFile(join(first, 'f.js'), 'utf8')).toBe(ORIGINAL);
    expect(await readFile(join(second, 'f.js'), 'utf8')).toBe(ORIGINAL);
  });

  it('stops after the run under way when the look does not want it, and never touches the look’s checkout', async () => {
    const runs: Array<{ dir: string; text: string }> = [];
    const candidates = Array.from({ length: 40 }, (_, i) => `fail-${i}`);
    const early = beginRivalSearch(
      basis(runner(runs, 20), candidates),
      async () => second,
      () => 60_000,
    );
    await waitFor(() => runs.length > 2);
    await early.settle();
    const seen = runs.length;
    expect(seen).toBeLessThan(candidates.length);
    await until(60);
    expect(runs.length).toBe(seen);
    expect(runs.every((run) => run.dir === second)).toBe(true);
    expect(await readFile(join(first, 'f.js'), 'utf8')).toBe(LOOKED);
    expect(await readFile(join(second, 'f.js'), 'utf8')).toBe(ORIGINAL);
  });

  it('does not begin when its checkout cannot be set up', async () => {
    const runs: Array<{ dir: string; text: string }> = [];
    const early = beginRivalSearch(
      basis(runner(runs, 0), ['pass-1']),
      async () => null,
      () => 60_000,
    );
    expect(await early.begun).toBeNull();
    await early.settle();
    expect(runs).toEqual([]);
  });
});
