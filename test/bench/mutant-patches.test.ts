// Wrong-but-plausible patches' making (bench/mutant-patches.ts): the lines a fix changes on each
// side, the mutations the repair templates do not make, mutants of the fix and of the buggy lines
// as patches against the buggy file (never the fix itself, never twice), and the kept mutants'
// files read back as written.
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixLines } from '../../bench/lib/fix-lines.ts';
import { extraMutations } from '../../bench/lib/mutant-extra.ts';
import { specialCases, testLiterals } from '../../bench/lib/mutant-special.ts';
import { generateMutants } from '../../bench/lib/mutant-generate.ts';
import { readMutants, writeMutants, type MutantsFile } from '../../bench/lib/mutant-files.ts';
import { applyEdits } from '../../src/engines/repair/candidate.ts';
import { fileDiff } from '../../src/workspace/unified-diff.ts';

const diff = (path: string, before: string, after: string) =>
  fileDiff({ path, before: Buffer.from(before), after: Buffer.from(after), mode: '100644' });

const buggy = ['function inRange(x, max) {', '  if (x > max) return false;', '  return true;', '}', ''].join('\n');
const fixed = ['function inRange(x, max) {', '  if (x >= max) return false;', '  return true;', '}', ''].join('\n');

describe('fixLines', () => {
  it('names the removed lines on the buggy side and the added ones on the fixed side', () => {
    expect(fixLines(diff('src/a.js', buggy, fixed))).toEqual([{ file: 'src/a.js', buggy: [2], fixed: [2], pairs: [[2, 2]] }]);
  });

  it('stands for a pure insertion by the buggy lines around it, and a pure removal by the fixed line after it', () => {
    const inserted = buggy.replace('  return true;', '  if (x < 0) return false;\n  return true;');
    expect(fixLines(diff('a.js', buggy, inserted))).toEqual([{ file: 'a.js', buggy: [2, 3], fixed: [3], pairs: [] }]);
    const removed = buggy.replace('  if (x > max) return false;\n', '');
    expect(fixLines(diff('a.js', buggy, removed))).toEqual([{ file: 'a.js', buggy: [2], fixed: [2], pairs: [] }]);
  });
});

describe('extraMutations', () => {
  const texts = (source: string, lines: number[], python: boolean) =>
    extraMutations(source, lines, python).map((m) => applyEdits(source, m.edits).split('\n')[lines[0]! - 1]);

  it('makes a changed condition constant, drops a fallback and adds one, in JavaScript', () => {
    expect(texts('if (a && b) go();\n', [1], false)).toEqual(['if (true) go();', 'if (false) go();']);
    expect(texts('const v = opts.sep ?? "/";\n', [1], false)).toEqual(['const v = opts.sep;']);
    expect(texts('  return name || fallback;\n', [1], false)).toEqual(['  return name;']);
    expect(texts('  return opts.sep;\n', [1], false)).toEqual(['  return (opts.sep) ?? null;']);
  });

  it('does the same in Python, and leaves a comparison and a loop that would never end alone', () => {
    expect(texts('    if x > 1:\n', [1], true)).toEqual(['    if True:', '    if False:']);
    expect(texts('    return value or default\n', [1], true)).toEqual(['    return value']);
    expect(texts('    return value\n', [1], true)).toEqual(['    return (value) or None']);
    expect(texts('while (i < n) i++;\n', [1], false)).toEqual(['while (false) i++;']);
    expect(extraMutations('a == b\n', [1], false)).toEqual([]);
    // A value never missing gets no fallback: a literal, or one that has its own.
    expect(extraMutations("    s = r'\\d+'\n", [1], true)).toEqual([]);
    expect(extraMutations('const re = /^a/;\n', [1], false)).toEqual([]);
    expect(texts('  return p || "";\n', [1], false)).toEqual(['  return p;']);
  });
});

describe('special cases', () => {
  it('takes the literals the tests add, not their titles, longest first', () => {
    const tests = [
      '+++ b/test/a.test.js',
      "+  it('keeps the bound', () => {",
      "+    expect(inRange(7, 'seven')).toBe(false);",
      ' unchanged(3);',
    ].join('\n');
    expect(testLiterals(tests)).toEqual(["'seven'", '7']);
  });

  it('keeps the fix only where a value the changed part reads is a literal of the tests', () => {
    const cases = specialCases('  if (x > max) return false;', '  if (x >= max) return false;', 0, 2, ['7'], false);
    expect(cases.map((c) => applyEdits('  if (x >= max) return false;', c.edits))).toEqual([
      '  if ((x === 7 ? x >= max : x > max)) return false;',
      '  if ((max === 7 ? x >= max : x > max)) return false;',
    ]);
    const py = specialCases('  if t.value == "AS":', '  if t.value.upper() == "AS":', 0, 1, ['"as"'], true);
    expect(applyEdits('  if t.value.upper() == "AS":', py[0]?.edits ?? [])).toBe(
      '  if (t.value.upper() == "AS" if t.value == "as" else t.value == "AS"):',
    );
  });
});

describe('generateMutants', () => {
  it('mutates the fix and the buggy lines, as patches against the buggy file, without the fix itself or a duplicate', async () => {
    const mutants = await generateMutants({
      fixPatch: diff('src/a.js', buggy, fixed),
      buggy: (f) => (f === 'src/a.js' ? buggy : null),
      fixed: (f) => (f === 'src/a.js' ? fixed : null),
    });
    expect(new Set(mutants.map((m) => m.origin))).toEqual(new Set(['fix', 'buggy']));
    expect(new Set(mutants.map((m) => m.hash)).size).toBe(mutants.length);
    // `>` → `>=` of the buggy line is the upstream fix: not a mutant.
    expect(mutants.some((m) => m.patch.includes('+  if (x >= max) return false;'))).toBe(false);
    const fromFix = mutants.find((m) => m.origin === 'fix' && m.description === 'condition `x >= max` → `false`');
    expect(fromFix?.patch).toContain('-  if (x > max) return false;\n+  if (false) return false;');
    expect(mutants.every((m) => m.patch.startsWith('diff --git a/src/a.js b/src/a.js'))).toBe(true);
  });
});

describe('the mutants files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fixloop-mutants-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file: MutantsFile = {
    bug: 'demo-01',
    keptBy: 'assessment',
    upstream: '0123456789abcdef',
    commit: 'abc1234',
    generated: 3,
    tried: 3,
    plausible: 2,
    kept: [
      {
        hash: 'aaaaaaaaaaaaaaaa',
        origin: 'fix',
        file: 'src/a.js',
        line: 2,
        kind: 'relational-operator',
        description: '`>=` → `>`',
        disagreements: 1,
        separatedBy: [{ input: 'inRange(3, 3)', upstream: 'false', mutant: 'true' }],
        inputs: ['inRange(3, 3)'],
      },
    ],
    equivalent: [],
    notCompared: [],
    unjudged: [],
    written: [],
    failsSuite: [],
  };

  it('reads back what it wrote, and refuses a kept mutant whose patch is gone', () => {
    writeMutants(dir, file, new Map([['aaaaaaaaaaaaaaaa', 'the patch']]));
    expect(readMutants(dir)).toEqual({ file, patches: new Map([['aaaaaaaaaaaaaaaa', 'the patch']]) });
    unlinkSync(join(dir, 'mutants', 'aaaaaaaaaaaaaaaa.patch'));
    expect(() => readMutants(dir)).toThrow(/patch is missing/);
  });
});
