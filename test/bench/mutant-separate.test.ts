// Wrong patches told from the upstream fix by hand-written separation programs
// (bench/mutant-separate.ts): a run's outputs by input, the verdict of two runs, and a bug's
// suite-passing mutants judged in real temp checkouts of the upstream fix and of each mutant: a
// program that separates keeps its mutant, one whose outputs agree and a missing one make it
// equivalent, one that fails on the upstream fix leaves it not compared.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMutants, writeMutants, type MutantsFile } from '../../bench/lib/mutant-files.ts';
import { EXIT_INPUT, outputsOf, runProgram, separateMutants, separation } from '../../bench/lib/mutant-separate.ts';
import { loadRealBug, patchHash } from '../../bench/lib/real-corpus.ts';
import { CLAMP_FIXED as fixed, clampBugFolder, clampDiff as diff } from '../support/clamp-bug.ts';

const run = (stdout: string, code = 0, stderr = '') => ({ stdout, code, stderr });

describe('outputsOf and separation', () => {
  it('reads one output per input, and a failed run as one more line', () => {
    expect(outputsOf(run('f(1)\t2\nf(0)\tnull\n\nstray\n'))).toEqual(
      new Map([
        ['f(1)', '2'],
        ['f(0)', 'null'],
        ['line 4', 'stray'],
      ]),
    );
    expect(outputsOf(run('f(1)\t2\n', 1, 'TypeError: x is undefined\n')).get(EXIT_INPUT)).toBe(
      'exit 1: TypeError: x is undefined',
    );
  });

  it('keeps the inputs whose outputs differ, and calls a program that fails on the upstream fix broken', () => {
    expect(separation(run('a\t1\nb\t2\n'), run('a\t1\nb\t3\n'))).toEqual({
      verdict: 'differs',
      compared: 2,
      differing: [{ input: 'b', upstream: '2', mutant: '3' }],
    });
    expect(separation(run('a\t1\n'), run('a\t1\n'))).toEqual({ verdict: 'agrees', compared: 1 });
    expect(separation(run('a\t1\n'), run('', 1, 'boom'))).toMatchObject({
      verdict: 'differs',
      differing: [
        { input: 'a', upstream: '1', mutant: '(not printed)' },
        { input: EXIT_INPUT, upstream: '(not printed)', mutant: 'exit 1: boom' },
      ],
    });
    expect(separation(run('', 2, 'SyntaxError'), run('a\t1\n'))).toMatchObject({ verdict: 'broken' });
    expect(separation(run(''), run(''))).toMatchObject({ verdict: 'broken' });
  });
});

describe('runProgram', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fixloop-separate-ts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads a TypeScript module whose imports name no extension, or the emitted .js', async () => {
    mkdirSync(join(dir, 'src/util'), { recursive: true });
    writeFileSync(join(dir, 'src/index.ts'), "export { twice } from './twice';\nexport { label } from './util';\n");
    writeFileSync(join(dir, 'src/twice.ts'), 'export const twice = (n: number): number => n * 2;\n');
    writeFileSync(
      join(dir, 'src/util/index.ts'),
      "import { twice } from '../twice.js';\nexport const label = (n: number): string => `x${twice(n)}`;\n",
    );
    const program = join(dir, 'program.mjs');
    writeFileSync(program, "import { label } from './src/index.ts';\nconsole.log('label(2)\\t' + label(2));\n");
    const ran = await runProgram(dir, program);
    expect(ran.stderr).toBe('');
    expect(outputsOf(ran)).toEqual(new Map([['label(2)', 'x4']]));
  });
});

const described = (patch: string, description: string) => ({
  hash: patchHash(patch),
  origin: 'fix' as const,
  file: 'lib/clamp.mjs',
  line: 2,
  kind: 'test',
  description,
});

describe('separateMutants in real checkouts', () => {
  const root = mkdtempSync(join(tmpdir(), 'fixloop-separate-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('keeps the mutant a program separates, and no other', { timeout: 60_000 }, async () => {
    const bug = loadRealBug(clampBugFolder(root));
    const patches = {
      // Wrong: null, not only undefined, is taken for no value.
      loose: diff(fixed.replace('x === undefined', 'x == null')),
      // Wrong only where its program does not look: its program agrees.
      zero: diff(fixed.replace('return 0;', 'return x > max ? max : 0;')),
      // Wrong, but no program was written for it.
      unwritten: diff(fixed.replace('return 0;', 'return -0;')),
      // Its program imports a module that is not there, on the upstream fix too.
      broken: diff(fixed.replace('return 0;', 'return 0 ;')),
    };
    const mutants = Object.fromEntries(Object.entries(patches).map(([k, p]) => [k, described(p, k)]));
    const file: MutantsFile = {
      bug: 'demo-01',
      keptBy: 'separation',
      upstream: patchHash(diff(fixed)),
      commit: 'abc1234',
      generated: 4,
      tried: 4,
      plausible: 4,
      kept: [],
      equivalent: [],
      notCompared: [],
      unjudged: Object.values(mutants),
      written: [],
      failsSuite: [],
    };
    const byHash = new Map(Object.values(patches).map((p) => [patchHash(p), p]));
    writeMutants(bug.dir, file, byHash);
    const program = (lines: string[]) =>
      ["import { clamp } from './lib/clamp.mjs';", ...lines.map((l) => `console.log(${l});`)].join('\n');
    const at = (hash: string, ext: string) => join(bug.dir, 'mutants', `${hash}.separate.${ext}`);
    writeFileSync(
      at(mutants.loose!.hash, 'mjs'),
      program(["'clamp(null, 5)\\t' + clamp(null, 5)", "'clamp(9, 5)\\t' + clamp(9, 5)"]),
    );
    writeFileSync(at(mutants.zero!.hash, 'py'), "print('clamp(9, 5)\\t5')\n");
    writeFileSync(at(mutants.broken!.hash, 'mjs'), "import './lib/gone.mjs';\n");

    const judged = await separateMutants(bug, readMutants(bug.dir, true)!.file, byHash, () => {});
    if (typeof judged === 'string') throw new Error(judged);
    expect(judged.kept).toEqual([
      {
        ...mutants.loose,
        disagreements: 1,
        separatedBy: [{ input: 'clamp(null, 5)', upstream: 'null', mutant: '0' }],
        inputs: ['clamp(null, 5)'],
      },
    ]);
    expect(judged.equivalent).toEqual([
      { ...mutants.unwritten, compared: 'no separation program' },
      { ...mutants.zero, compared: "the separation program's 1 inputs agree" },
    ]);
    expect(judged.notCompared).toEqual([{ ...mutants.broken, why: expect.stringMatching(/fails on the upstream fix: exit 1/) }]);
    expect(judged.unjudged).toEqual([]);

    // Written back: the programs and every suite-passing patch stay, so that it can be judged again.
    writeMutants(bug.dir, judged, byHash);
    expect(readdirSync(join(bug.dir, 'mutants')).filter((f) => f.includes('.separate.'))).toHaveLength(3);
    const again = readMutants(bug.dir, true)!;
    expect(again.file.kept.map((k) => k.hash)).toEqual([mutants.loose!.hash]);
    expect(again.patches.size).toBe(4);
  });
});
