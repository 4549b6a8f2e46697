// The rival search step by step: each step runs candidates on the failing tests (here a stand-in
// runner that reads the checkout as a real one would) until enough pass, and the next step goes on
// where it ended, with the checkout written back to the original after every run.
import { lstat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { standInGate, standInSuite } from '../support/stand-in-suite.ts';
import { startRivalSearch, type RivalSource } from '../../src/assess/rival-search.ts';

const ORIGINAL = 'export const f = (a, b) => a < b;\n';
const PATCH = 'export const f = (a, b) => a <= b;\n';
/** Candidates whose text contains `pass` pass the failing tests; the rest fail them. */
const CANDIDATES = ['fail-1', 'pass-1', 'fail-2', 'pass-2', 'pass-3', 'fail-3'];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fixloop-rival-search-'));
  await writeFile(join(dir, 'f.js'), ORIGINAL);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A runner that passes when the checkout's f.js is the patch or a passing candidate, and remembers what each run saw (and where). */
function runner(seen: string[], where: string[] = [], runMs = 0, tmps: Array<string | undefined> = []): SuiteRunner {
  return standInSuite(async (cwd, view) => {
    const text = await readFile(join(cwd, 'f.js'), 'utf8');
    seen.push(text.trim());
    where.push(cwd);
    tmps.push(view?.tmpDir);
    await new Promise((resolve) => setTimeout(resolve, runMs));
    return standInGate(text === PATCH || text.includes('pass'));
  });
}

const source: RivalSource = {
  candidates: async () => CANDIDATES.map((name) => ({ file: 'f.js', text: `// ${name}\n`, summary: name })),
  weakens: async (found) => found.map(() => null),
};

function search(
  seen: string[],
  focused: string[] = ['npx vitest run f.test.js'],
  second?: { dir: string; where: string[] },
  tmps?: Array<string | undefined>,
) {
  return startRivalSearch(
    {
      source,
      request: {
        dir,
        original: async () => ORIGINAL,
        patched: { name: 'patch', files: new Map([['f.js', PATCH]]) },
        fixed: [],
        testFiles: [],
      },
      suite: runner(seen, second?.where, second ? 20 : 0, tmps),
      focused,
      ...(second ? { second: { ready: async () => second.dir, made: true } } : {}),
      log: () => undefined,
    },
    60_000,
  );
}

/** A deadline a minute from when the step begins. */
function inAMinute(): () => number {
  const end = Date.now() + 60_000;
  return () => end;
}

describe('the rival search', () => {
  it('goes on in the next step where the last one found enough, and leaves the checkout as the original has it', async () => {
    const seen: string[] = [];
    const searcher = await search(seen);
    if (!searcher) throw new Error('no search started');
    expect(searcher.candidates).toBe(CANDIDATES.length);
    const first = await searcher.next(1, inAMinute());
    expect(first.rivals.map((r) => r.info.summary)).toEqual(['pass-1']);
    expect(first.stopped).toBe('enough');
    expect(searcher.tried).toBe(2);
    const second = await searcher.next(2, inAMinute());
    expect(second.rivals.map((r) => r.info.summary)).toEqual(['pass-2', 'pass-3']);
    expect(second.rivals.map((r) => r.version.name)).toEqual(['rival-2', 'rival-3']);
    expect(second.rivals[0]?.info.foundBy).toBe('assessment');
    const last = await searcher.next(2, inAMinute());
    expect(last).toEqual({ rivals: [] });
    expect(searcher.tried).toBe(CANDIDATES.length);
    // The patch itself first (its time bounds the candidates'), then every candidate once, in order.
    expect(seen).toEqual([PATCH.trim(), ...CANDIDATES.map((c) => `// ${c}`)]);
    expect(await readFile(join(dir, 'f.js'), 'utf8')).toBe(ORIGINAL);
  });

  it('gives the candidates of one checkout a /tmp they share, never the patch’s, and removes it when closed', async () => {
    const seen: string[] = [];
    const tmps: Array<string | undefined> = [];
    const searcher = await search(seen, undefined, undefined, tmps);
    await searcher?.next(10, inAMinute());
    const [patchRun, ...candidateRuns] = tmps;
    expect(patchRun).toBeUndefined();
    expect(candidateRuns).toHaveLength(CANDIDATES.length);
    expect(new Set(candidateRuns).size).toBe(1);
    const kept = candidateRuns[0] as string;
    expect((await lstat(kept)).isDirectory()).toBe(true);
    await searcher?.close();
    await expect(lstat(kept)).rejects.toThrow();
  });

  it('stops a step for time before a run it could not finish', async () => {
    const seen: string[] = [];
    const searcher = await search(seen);
    const step = await searcher?.next(3, () => Date.now());
    expect(step).toEqual({ rivals: [], stopped: 'time' });
    expect(searcher?.tried).toBe(0);
  });

  it('runs candidates in a second checkout beside the first, each once, finds them in order, and removes it when closed', async () => {
    const seen: string[] = [];
    const where: string[] = [];
    const other = await mkdtemp(join(tmpdir(), 'fixloop-rival-second-'));
    await writeFile(join(other, 'f.js'), ORIGINAL);
    const searcher = await search(seen, undefined, { dir: other, where });
    if (!searcher) throw new Error('no search started');
    const step = await searcher.next(10, inAMinute());
    expect(step.rivals.map((r) => r.info.summary)).toEqual(['pass-1', 'pass-2', 'pass-3']);
    expect(searcher.tried).toBe(CANDIDATES.length);
    // The patch's own run, then each candidate once, in one checkout or the other.
    expect(seen.slice(1).sort()).toEqual(CANDIDATES.map((c) => `// ${c}`).sort());
    expect(new Set(where.slice(1))).toEqual(new Set([dir, other]));
    expect(await readFile(join(dir, 'f.js'), 'utf8')).toBe(ORIGINAL);
    expect(await readFile(join(other, 'f.js'), 'utf8')).toBe(ORIGINAL);
    await searcher.close();
    await expect(readFile(join(other, 'f.js'), 'utf8')).rejects.toThrow();
  });

  it('sets aside unrun the candidates its screen sets aside, from the moment it is given one', async () => {
    const seen: string[] = [];
    const searcher = await search(seen);
    if (!searcher) throw new Error('no search started');
    await searcher.next(1, inAMinute());
    const screened: string[] = [];
    // A screen that sets aside the failing candidates, having seen each one written in the checkout.
    searcher.screenWith({
      setsAside: async (at, candidate, versions) => {
        let text = '';
        await versions.candidate(async () => {
          text = await readFile(join(at, 'f.js'), 'utf8');
          return [];
        });
        screened.push(text.trim());
        return candidate.startsWith('fail');
      },
    });
    const rest = await searcher.next(10, inAMinute());
    expect(rest.rivals.map((r) => r.info.summary)).toEqual(['pass-2', 'pass-3']);
    expect(screened).toEqual(['// fail-2', '// pass-2', '// pass-3', '// fail-3']);
    // fail-1 ran before the screen was given; fail-2 and fail-3 never ran on the failing tests.
    expect(seen).toEqual([PATCH.trim(), '// fail-1', '// pass-1', '// pass-2', '// pass-3']);
    expect({ tried: searcher.tried, screened: searcher.screened }).toEqual({ tried: 4, screened: 2 });
    expect(await readFile(join(dir, 'f.js'), 'utf8')).toBe(ORIGINAL);
  });

  it('tries nothing when the failing tests cannot be run alone', async () => {
    const seen: string[] = [];
    expect(await search(seen, [])).toBeNull();
    expect(seen).toEqual([]);
  });
});
