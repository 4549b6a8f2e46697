// The path each probed call takes (src/assess/js/probe-path.ts and the runtime's frames): markers on statements
// and branches, inserted on their own lines, that record which ran in the call and in the inputs
// generated around it, under real Node, in JavaScript and TypeScript.
import { afterAll, describe, expect, it } from 'vitest';
import { instrumentJs } from '../../../src/assess/js/probe.ts';
import { NODE24, allLines, instrumentInto, of, records, removeProjects, run, tempProject, writeInto } from './probe-run.ts';

afterAll(removeProjects);

const GRADE = [
  'function grade(score) {',
  '  if (score >= 90) return "A";',
  '  if (score <= 50) return "C";',
  '  for (const step of [1, 2]) score > 0 ? total(step) : total(-step);',
  '  label: for (;;) { if (score !== 0) break label; else { score = 5; continue label; } }',
  '  do score--; while (score > 1000)',
  '  switch (score) { case 1: return "D"; default: return score && "F" || "E"; }',
  '}',
  'function total(n) { return n > 0 ? n : -n; }',
  'const pick = (a) => a ? a ?? 1 : 2;',
  'module.exports = { grade, pick };',
  '',
].join('\n');

describe('the path markers', () => {
  it('go on the lines they mark, in blocks where a lone statement stood, and leave every line in place', () => {
    const result = instrumentJs(GRADE, allLines(GRADE), {
      recordFile: '/r/.fixloop-probe/records.jsonl',
      path: 'grade.js',
      runtimeDir: '/r/.fixloop-probe',
    });
    const lines = result?.source.split('\n') ?? [];
    expect(lines).toHaveLength(GRADE.split('\n').length);
    const marker = (k: number, fn = 'grade') => `__fixloop_p().l("grade.js#${fn}", ${k})`;
    expect(lines[1]).toBe(`  ${marker(0)}; if (score >= 90) {${marker(1)}; return "A";}`);
    expect(lines[3]).toContain(`{${marker(5)}; score > 0 ? (${marker(6)}, total(step)) : (${marker(7)}, total(-step));}`);
    // A labelled loop keeps its label on the loop (`continue label` needs it there).
    expect(lines[4]).toContain(
      `${marker(8)}; label: for (;;) { ${marker(9)}; if (score !== 0) {${marker(10)}; break label;} else { ${marker(11)}; score = 5;`,
    );
    expect(lines[5]).toBe(`  ${marker(13)}; do {${marker(14)}; score--;} while (score > 1000)`);
    expect(lines[8]).toContain(`${marker(0, 'total')}; return n > 0 ? (${marker(1, 'total')}, n) : (${marker(2, 'total')}, -n);`);
    expect(lines[9]).toContain(`a ? (${marker(0, 'pick')}, a ?? (${marker(1, 'pick')}, 1)) : (${marker(2, 'pick')}, 2)`);
  });

  it('record the path of each call, the same for inputs that take the same way, under real Node', () => {
    const root = tempProject();
    instrumentInto(root, 'grade.js', GRADE);
    writeInto(
      root,
      'main.js',
      'const { grade, pick } = require("./grade.js");\nconsole.log(grade(95), grade(60), grade(20), pick(0), pick(3));\n',
    );
    const ran = run(NODE24, ['main.js'], root);
    expect(ran.stdout).toBe('A F C 2 3\n');
    const all = records(root);
    const pathOf = (fn: string, args: string) => all.find((r) => r.fn === `grade.js#${fn}` && r.args === args)?.path;
    expect(pathOf('grade', '95')).toEqual([0, 1]);
    expect(pathOf('grade', '20')).toEqual([0, 2, 3]);
    // Generated around 95 and taking the failing 20's way: the same path as that call.
    expect(of(all, 'grade.js#grade', 'generated').find((r) => r.args === '-95')?.path).toEqual([0, 2, 3]);
    // The loop, its branch taken, the labelled loop's break, do-while, switch's default, `&&` taken and `||` not.
    expect(pathOf('grade', '60')).toEqual([0, 2, 4, 5, 6, 8, 9, 10, 13, 14, 15, 17, 18]);
    // A probed function called inside another keeps its own path; the caller's has none of its markers.
    expect(pathOf('total', '1')).toEqual([0, 1]);
    expect(pathOf('total', '-1')).toEqual([0, 2]);
    expect(pathOf('pick', '0')).toEqual([2]);
    expect(pathOf('pick', '3')).toEqual([0]);
  });

  it("keep TypeScript typed: the rewritten file runs under Node's type stripping", () => {
    const source =
      'export function half(n: number): number {\n  if (n < 0) throw new RangeError("negative");\n  return n > 1 ? n / 2 : n;\n}\n';
    const root = tempProject();
    instrumentInto(root, 'half.ts', source);
    writeInto(
      root,
      'main.ts',
      'import { half } from "./half.ts";\nconsole.log(half(4));\ntry { half(-1); } catch (e) { console.log((e as Error).message); }\n',
    );
    writeInto(root, 'package.json', '{ "type": "module" }\n');
    const ran = run(NODE24, ['main.ts'], root);
    expect(ran.stdout).toBe('2\nnegative\n');
    const all = records(root);
    expect(all.find((r) => r.kind === 'suite' && r.args === '4')?.path).toEqual([0, 2, 3]);
    // A call that threw: the path up to the throw.
    expect(all.find((r) => r.kind === 'suite' && r.args === '-1')).toMatchObject({
      out: { threw: 'RangeError: negative' },
      path: [0, 1],
    });
  });
});
