import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits, GenerationError, type TemplateId } from '../../../../src/engines/repair/candidate.ts';
import { pythonGenerator } from '../../../../src/engines/repair/templates/python/python-generator.ts';

async function results(source: string, lines: number[], template?: TemplateId): Promise<string[]> {
  const out = await pythonGenerator.generate('pkg/mod.py', source, new Set(lines));
  return out.filter((c) => template === undefined || c.template === template).map((c) => applyEdits(source, c.edits));
}

describe('pythonGenerator (Python ast + tokenize)', () => {
  it('replaces comparison, boolean, arithmetic and augmented operators', async () => {
    expect(await results('def f(a, b):\n    return a < b\n', [2], 'relational-operator')).toContain(
      'def f(a, b):\n    return a <= b\n',
    );
    expect(await results('def f(a, b):\n    return a is b\n', [2], 'equality-operator')).toContain(
      'def f(a, b):\n    return a is not b\n',
    );
    expect(await results('def f(a, xs):\n    return a not in xs\n', [2], 'equality-operator')).toContain(
      'def f(a, xs):\n    return a in xs\n',
    );
    expect(await results('def f(a, b):\n    return a and b\n', [2], 'logical-operator')).toContain(
      'def f(a, b):\n    return a or b\n',
    );
    expect(await results('def f(a, b):\n    return a // b\n', [2], 'arithmetic-operator')).toContain(
      'def f(a, b):\n    return a / b\n',
    );
    expect(await results('def f(t):\n    t -= 1\n    return t\n', [2], 'arithmetic-operator')).toContain(
      'def f(t):\n    t += 1\n    return t\n',
    );
  });

  it('shifts range bounds, indices, slices and explicit +1s', async () => {
    expect(await results('def f(n):\n    for i in range(n):\n        print(i)\n', [2], 'loop-bound')).toContain(
      'def f(n):\n    for i in range(n + 1):\n        print(i)\n',
    );
    expect(await results('def f(xs, i):\n    return xs[i]\n', [2], 'off-by-one-bound')).toContain(
      'def f(xs, i):\n    return xs[i - 1]\n',
    );
    expect(await results('def f(xs, n):\n    return xs[:n]\n', [2], 'off-by-one-bound')).toContain(
      'def f(xs, n):\n    return xs[:n + 1]\n',
    );
    // An adjustment already written is dropped, not compensated (`n - 1 + 1` is the same program, a worse patch).
    const trimmed = await results('def f(xs, n):\n    return xs[:n - 1]\n', [2], 'off-by-one-bound');
    expect(trimmed).toContain('def f(xs, n):\n    return xs[:n]\n');
    expect(trimmed).toContain('def f(xs, n):\n    return xs[:n - 1 - 1]\n');
    expect(trimmed).not.toContain('def f(xs, n):\n    return xs[:n - 1 + 1]\n');
    expect(await results('def f(xs):\n    return sum(xs) / (len(xs) + 1)\n', [2], 'off-by-one-bound')).toContain(
      'def f(xs):\n    return sum(xs) / (len(xs))\n',
    );
  });

  it('makes the fix kinds of the real corpus: normalized strings, presence checks, deleted calls', async () => {
    const compare = "def is_as(token):\n    if token.value == 'AS':\n        return True\n";
    expect(await results(compare, [2], 'normalize-string')).toContain(
      "def is_as(token):\n    if token.value.upper() == 'AS':\n        return True\n",
    );
    expect(await results('def f(val):\n    return val\n', [2], 'normalize-string')).toContain(
      'def f(val):\n    return val.lower()\n',
    );
    // Failing tests whose values differ only in case: the case normalizations are what they show.
    const shown = await pythonGenerator.generate('pkg/mod.py', compare, new Set([2]), { outputDifferences: ['case'] });
    expect(
      shown
        .filter((c) => c.template === 'normalize-string')
        .map((c) => [c.edits[0]?.text.split('.').at(-1), c.fromTests ?? false]),
    ).toEqual([
      ['upper()', true],
      ['strip()', false],
    ]);
    expect(await results('def f(opts):\n    if opts.name:\n        return 1\n', [2], 'presence-check')).toEqual([
      'def f(opts):\n    if opts.name is not None:\n        return 1\n',
    ]);
    const calls = 'def f(out):\n    out.append(1)\n    log(out)\n    if out:\n        log(out)\n';
    expect(await results(calls, [2, 5], 'delete-statement')).toEqual([
      'def f(out):\n    \n    log(out)\n    if out:\n        log(out)\n',
      'def f(out):\n    out.append(1)\n    log(out)\n    if out:\n        pass\n',
    ]);
  });

  it('negates conditions, drops operands, swaps arguments, min/max and any/all', async () => {
    expect(await results('def f(a):\n    if a:\n        return 1\n', [2], 'negate-condition')).toEqual([
      'def f(a):\n    if not (a):\n        return 1\n',
    ]);
    expect(await results('def f(a, b):\n    return a > 0 and b > 0\n', [2], 'drop-conjunct')).toEqual([
      'def f(a, b):\n    return b > 0\n',
      'def f(a, b):\n    return a > 0\n',
    ]);
    // `a and b or c` groups as precedence says; the fix may be the other grouping (only parentheses added).
    expect(await results('def f(a, b, c):\n    return not a and b or c\n', [2], 'regroup-logic')).toEqual([
      'def f(a, b, c):\n    return not a and (b or c)\n',
    ]);
    expect(await results('def f(a, b, c):\n    return a or b and c\n', [2], 'regroup-logic')).toEqual([
      'def f(a, b, c):\n    return (a or b) and c\n',
    ]);
    expect(await results('def f(a, b, c):\n    return (a and b) or c\n', [2], 'regroup-logic')).toEqual([]);
    expect(await results('def f(a, b):\n    return pow(a, b)\n', [2], 'swap-arguments')).toEqual([
      'def f(a, b):\n    return pow(b, a)\n',
    ]);
    expect(await results('def f(xs):\n    return min(xs)\n', [2], 'min-max')).toEqual(['def f(xs):\n    return max(xs)\n']);
    expect(await results('def f(xs):\n    return any(xs)\n', [2], 'any-all')).toEqual(['def f(xs):\n    return all(xs)\n']);
  });

  it('replaces names in scope, methods with similar ones, and adds None guards', async () => {
    expect(await results('def f(width, height):\n    return width * width\n', [2], 'replace-identifier')).toContain(
      'def f(width, height):\n    return width * height\n',
    );
    expect(await results('def f(s):\n    return s.startswith("x")\n', [2], 'change-method')).toContain(
      'def f(s):\n    return s.endswith("x")\n',
    );
    expect(await results('def f(user):\n    return user.name\n', [2], 'add-null-guard')).toContain(
      'def f(user):\n    if user is None:\n        return None\n    return user.name\n',
    );
  });

  it("edits a pattern's quantifier, class or anchor in a raw literal or an argument of `re`, as the JS template does", async () => {
    const raw = "FLOAT = r'\\d+\\.\\d+'\n";
    const edited = await results(raw, [1], 'regex-literal');
    expect(edited).toContain("FLOAT = r'\\d*\\.\\d+'\n");
    expect(edited).toContain("FLOAT = r'\\d+\\.\\d*'\n");
    expect(edited).toContain("FLOAT = r'^\\d+\\.\\d+'\n");
    const host = 'import re\nHOST = re.compile("[^/?]+")\n';
    expect(await results(host, [2], 'regex-literal')).toContain('import re\nHOST = re.compile("[^/?#]+")\n');
    // A literal that is not raw gets no escape written into it; plain text is no pattern.
    expect(await results(host, [2], 'regex-literal')).not.toContain('import re\nHOST = re.compile("[^/?\\s]+")\n');
    expect(await results('GREETING = "a+b"\n', [1], 'regex-literal')).toEqual([]);
    // Every pattern offered compiles.
    expect(await results("BAD = r'(a+'\n", [1], 'regex-literal')).toEqual([]);
  });

  it('counts offsets in UTF-16 code units after non-ASCII text', async () => {
    const src = 'def f(a, b):\n    note = "é😀"; return a < b\n';
    expect(await results(src, [2], 'relational-operator')).toContain('def f(a, b):\n    note = "é😀"; return a <= b\n');
  });

  it('gives nothing for other lines or a file that does not parse, and the same output twice', async () => {
    const src = 'def f(a):\n    return a < 1\n\ndef g(a):\n    return a < 2\n';
    const first = await pythonGenerator.generate('m.py', src, new Set([5]));
    expect(first.every((c) => c.line === 5)).toBe(true);
    expect(JSON.stringify(await pythonGenerator.generate('m.py', src, new Set([5])))).toBe(JSON.stringify(first));
    expect(await results('def f(:\n', [1])).toEqual([]);
  });

  it('checks that a candidate parses by its own statement, indented ones included', async () => {
    const source =
      'class C:\n    def f(self, a, b):\n        if a < b:\n            return [a,\n                    b]\n        return a\n';
    expect(await results(source, [3], 'relational-operator')).toContain(source.replace('a < b', 'a <= b'));
    expect(await results(source, [4], 'swap-arguments')).toEqual([]);
  });

  it('says when it could not do its work, rather than finding no template', async () => {
    const bin = await mkdtemp(join(tmpdir(), 'fixloop-fake-python-'));
    const path = process.env.PATH;
    try {
      await writeFile(join(bin, 'python3'), '#!/bin/sh\necho "MemoryError: out of memory" >&2\nexit 1\n');
      await chmod(join(bin, 'python3'), 0o755);
      process.env.PATH = `${bin}:${path ?? ''}`;
      const failed = pythonGenerator.generate('pkg/mod.py', 'x = 1\n', new Set([1]));
      await expect(failed).rejects.toBeInstanceOf(GenerationError);
      await expect(failed).rejects.toThrow(
        'the Python template generator failed on pkg/mod.py (exit 1): MemoryError: out of memory',
      );
    } finally {
      process.env.PATH = path;
      await rm(bin, { recursive: true, force: true });
    }
  });
});
