import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../../../src/engines/repair/candidate.ts';
import { tokenGenerator } from '../../../../src/engines/repair/templates/token/token-generator.ts';

async function results(file: string, source: string, line: number): Promise<string[]> {
  return (await tokenGenerator.generate(file, source, new Set([line]))).map((c) => applyEdits(source, c.edits));
}

describe('tokenGenerator (C-like fallback)', () => {
  it('fixes a Java boundary, ignoring strings and comments', async () => {
    const src = 'class A {\n  boolean ok(int n) { return n > 10; } // n > 10 in a comment\n  String s = "a < b";\n}\n';
    const out = await results('A.java', src, 2);
    expect(out).toContain(src.replace('return n > 10;', 'return n >= 10;'));
    expect(out.every((r) => r.includes('// n > 10 in a comment'))).toBe(true);
    expect(await results('A.java', src, 3)).toEqual([]);
  });

  it('leaves generic brackets alone and shifts integer literals in Go and C', async () => {
    const java = 'class B {\n  List<String> xs = new ArrayList<String>();\n}\n';
    expect((await results('B.java', java, 2)).some((r) => r.includes('List<=String>'))).toBe(false);
    expect(await results('main.go', 'package m\nfunc f(n int) int { return n - 1 }\n', 2)).toContain(
      'package m\nfunc f(n int) int { return n + 1 }\n',
    );
    expect(await results('a.c', 'int f(int a, int b) { return max(a, b); }\n', 1)).toContain(
      'int f(int a, int b) { return min(a, b); }\n',
    );
    expect(await results('a.c', 'int g(int a, int b) { return sub(a, b); }\n', 1)).toContain(
      'int g(int a, int b) { return sub(b, a); }\n',
    );
  });
});
