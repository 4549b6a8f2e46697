// Wrong patches written by hand beside the generated mutants (bench/lib/mutant-hand.ts): added
// unrun, run through the whole suite by the separation step in real temp checkouts (one that fails
// the suite is set aside, one that passes is judged by its program), and carried over when the
// generated mutants are made again.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addHandPatch, hasHandPatches, withHandPatches } from '../../bench/lib/mutant-hand.ts';
import { readMutants, writeMutants, type MutantsFile } from '../../bench/lib/mutant-files.ts';
import { separateMutants } from '../../bench/lib/mutant-separate.ts';
import { loadRealBug, patchHash } from '../../bench/lib/real-corpus.ts';
import { CLAMP_FIXED as fixed, clampBugFolder, clampDiff as diff } from '../support/clamp-bug.ts';

const suite = [
  "import test from 'node:test';",
  "import assert from 'node:assert';",
  "import { clamp } from '../lib/clamp.mjs';",
  "test('clamp of nothing', () => assert.strictEqual(clamp(undefined, 5), 0));",
  "test('clamp above', () => assert.strictEqual(clamp(9, 5), 5));",
].join('\n');

describe('hand-written wrong patches', () => {
  const root = mkdtempSync(join(tmpdir(), 'fixloop-hand-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const bugDir = clampBugFolder(root, suite);
  // Wrong: null, not only undefined, is taken for no value; the suite passes.
  const loose = diff(fixed.replace('x === undefined', 'x == null'));
  // Fails the failing test: the suite refuses it before any program runs.
  const failing = diff(fixed.replace('return 0;', 'return 1;'));

  it('adds a patch unrun, makes mutants.json when there is none, and refuses the upstream fix', () => {
    expect(addHandPatch(bugDir, 'demo-01', 'abc1234', { kind: 'broadened', description: 'null too', patch: loose })).toEqual({
      hash: patchHash(loose),
    });
    addHandPatch(bugDir, 'demo-01', 'abc1234', { kind: 'sentinel', description: 'one', patch: failing });
    // Added twice, listed once.
    addHandPatch(bugDir, 'demo-01', 'abc1234', { kind: 'sentinel', description: 'one', patch: failing });
    expect(addHandPatch(bugDir, 'demo-01', 'abc1234', { kind: 'x', description: 'x', patch: diff(fixed) })).toMatch(/^refused/);
    const { file, patches } = readMutants(bugDir, true)!;
    expect(file).toMatchObject({ keptBy: 'separation', upstream: patchHash(diff(fixed)), plausible: 0, kept: [] });
    expect(file.written).toEqual([
      { hash: patchHash(loose), origin: 'hand', file: 'lib/clamp.mjs', line: 1, kind: 'broadened', description: 'null too' },
      { hash: patchHash(failing), origin: 'hand', file: 'lib/clamp.mjs', line: 1, kind: 'sentinel', description: 'one' },
    ]);
    expect(patches.get(patchHash(loose))).toBe(loose);
  });

  it(
    'runs the whole suite on each before its program: kept when both say wrong, set aside when the suite fails',
    { timeout: 120_000 },
    async () => {
      const program = "import { clamp } from './lib/clamp.mjs';\nconsole.log('clamp(null, 5)\\t' + clamp(null, 5));\n";
      for (const patch of [loose, failing]) writeFileSync(join(bugDir, 'mutants', `${patchHash(patch)}.separate.mjs`), program);
      const { file, patches } = readMutants(bugDir, true)!;
      const judged = await separateMutants(loadRealBug(bugDir), file, patches, () => {});
      if (typeof judged === 'string') throw new Error(judged);
      expect(judged.kept).toEqual([
        expect.objectContaining({ hash: patchHash(loose), origin: 'hand', inputs: ['clamp(null, 5)'] }),
      ]);
      expect(judged.failsSuite.map((m) => m.hash)).toEqual([patchHash(failing)]);
      expect(judged).toMatchObject({ written: [], unjudged: [], tried: 2, plausible: 1 });
      writeMutants(bugDir, judged, patches);
      // Measured by bench/assess-mutants.ts as a kept mutant: its patch is read with the kept ones.
      expect(readMutants(bugDir)!.patches.get(patchHash(loose))).toBe(loose);
    },
  );

  it('carries the hand-written patches over when the generated mutants are made again', () => {
    const previous = readMutants(bugDir, true)!;
    expect(hasHandPatches(previous.file)).toBe(true);
    const made = {
      ...previous.file,
      kept: [] as MutantsFile['kept'],
      failsSuite: [] as MutantsFile['failsSuite'],
      tried: 3,
      plausible: 0,
    };
    const { made: merged, patches } = withHandPatches(made, new Map([['0123456789abcdef', 'generated']]), previous);
    expect(merged.kept.map((m) => m.hash)).toEqual([patchHash(loose)]);
    expect(merged.failsSuite.map((m) => m.hash)).toEqual([patchHash(failing)]);
    expect(merged).toMatchObject({ tried: 5, plausible: 1 });
    expect([...patches.keys()].sort()).toEqual(['0123456789abcdef', patchHash(failing), patchHash(loose)].sort());
    expect(readFileSync(join(bugDir, 'mutants', `${patchHash(failing)}.patch`), 'utf8')).toBe(failing);
  });
});
