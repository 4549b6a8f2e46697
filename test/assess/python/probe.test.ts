// The Python probe's instrumentation: which functions, their ids, and the text it writes, read by
// real python3 (the parser; the runtime is exercised in probe-runtime.test.ts).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { instrumentPython } from '../../../src/assess/python/probe.ts';
import { preferResolvedPython } from './probe-support.ts';

preferResolvedPython();

const target = { recordFile: '/work/repo/.fixloop/records.jsonl', path: 'pkg/mod.py', runtimeDir: '/work/repo/.fixloop' };
const DECORATOR = "@_fixloop_probe.probe('pkg/mod.py#";

/** Line numbers as the caller sees them: 1-based, of this version. */
const lines = (...numbers: number[]) => new Set(numbers);

function parses(source: string): boolean {
  return spawnSync('python3', ['-I', '-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: source }).status === 0;
}

describe('instrumentPython', () => {
  it('probes the innermost def around each changed line, methods and nested functions included', async () => {
    const source = [
      'import os', //                            1
      'LIMIT = 3', //                            2
      'class Parser:', //                        3
      '    def parse(self, text):', //           4
      '        return text.strip()', //          5
      '    class Inner:', //                     6
      '        def go(self):', //                7
      '            return 1', //                 8
      'def outer(x):', //                        9
      '    key = lambda v: v + x', //           10
      '    def inner(y):', //                   11
      '        return y * 2', //                12
      '    return inner(key(x))', //            13
    ].join('\n');
    const result = await instrumentPython(source, lines(2, 5, 8, 10, 12, 13), target);
    expect(result?.functions).toEqual([
      { id: 'pkg/mod.py#Parser.parse', name: 'Parser.parse', path: 'pkg/mod.py', line: 4 },
      { id: 'pkg/mod.py#Parser.Inner.go', name: 'Parser.Inner.go', path: 'pkg/mod.py', line: 7 },
      { id: 'pkg/mod.py#outer', name: 'outer', path: 'pkg/mod.py', line: 9 },
      { id: 'pkg/mod.py#outer.<locals>.inner', name: 'outer.<locals>.inner', path: 'pkg/mod.py', line: 11 },
    ]);
    expect(await instrumentPython(source, lines(1, 2, 3), target)).toBeNull();
  });

  it('puts the decorator right above the def, under its own decorators, at its indentation', async () => {
    const source =
      'class A:\n\t@staticmethod\n\tdef s(x):\n\t\treturn x\n\n\t@classmethod\n\t# a comment\n\tdef c(cls):\n\t\treturn cls\n';
    const result = await instrumentPython(source, lines(4, 9), target);
    const probeOf = (name: string) => `\t${DECORATOR}${name}', '/work/repo/.fixloop/records.jsonl')`;
    expect(result?.source.split('\n').slice(1)).toEqual([
      'class A:',
      '\t@staticmethod',
      probeOf('A.s'),
      '\tdef s(x):',
      '\t\treturn x',
      '',
      '\t@classmethod',
      '\t# a comment',
      probeOf('A.c'),
      '\tdef c(cls):',
      '\t\treturn cls',
      '',
    ]);
    expect(parses(result?.source ?? '')).toBe(true);
  });

  it('goes above the decorators when the patch changed one of them, unless one must stay outermost', async () => {
    // The patch added `@recurse(...)`: the change is in what wraps the body, seen only from outside it.
    const source =
      'import sql\n\n\n@recurse(sql.Identifier)\ndef group_order(tlist):\n    return tlist\n\n\nclass A:\n    @staticmethod\n    @retry(3)\n    def s(x):\n        return x\n';
    const result = await instrumentPython(source, lines(4, 11), target);
    const probeOf = (name: string, indent = '') => `${indent}${DECORATOR}${name}', '/work/repo/.fixloop/records.jsonl')`;
    expect(result?.source.split('\n').slice(4, 15)).toEqual([
      probeOf('group_order'),
      '@recurse(sql.Identifier)',
      'def group_order(tlist):',
      '    return tlist',
      '',
      '',
      'class A:',
      '    @staticmethod',
      '    @retry(3)',
      probeOf('A.s', '    '),
      '    def s(x):',
    ]);
    expect(result?.functions.map((f) => f.line)).toEqual([5, 12]);
    expect(parses(result?.source ?? '')).toBe(true);
  });

  it('joins the header to the docstring and the __future__ imports, so no other line moves', async () => {
    const source = '"""Doc."""\nfrom __future__ import annotations  # keep\nimport os\n\n\ndef f(x):\n    return x\n';
    const result = await instrumentPython(source, lines(7), target);
    const out = result?.source.split('\n') ?? [];
    expect(out[0]).toBe('"""Doc."""');
    expect(out[1]).toMatch(
      /^from __future__ import annotations; _fixloop_probe = .*'\/work\/repo\/\.fixloop\/fixloop_probe\.py'.* {2}# keep$/,
    );
    expect(out.slice(2, 7)).toEqual(['import os', '', '', `${DECORATOR}f', '/work/repo/.fixloop/records.jsonl')`, 'def f(x):']);
    expect(result?.functions[0]?.line).toBe(6);
    expect(parses(result?.source ?? '')).toBe(true);
  });

  it('puts the header on its own line below a shebang and coding cookie when there is no docstring', async () => {
    const source = '#!/usr/bin/env python\n# -*- coding: utf-8 -*-\r\nimport os\r\ndef f():\r\n    return "é"\r\n';
    const result = await instrumentPython(source, lines(5), target);
    const out = result?.source.split('\r\n') ?? [];
    expect(out[0]).toBe('#!/usr/bin/env python\n# -*- coding: utf-8 -*-');
    expect(out[1]).toMatch(/^_fixloop_probe = /);
    expect(out.slice(2, 6)).toEqual([
      'import os',
      `${DECORATOR}f', '/work/repo/.fixloop/records.jsonl')`,
      'def f():',
      '    return "é"',
    ]);
    expect(parses(result?.source ?? '')).toBe(true);
  });

  it('writes paths and names as ASCII Python literals', async () => {
    const result = await instrumentPython('def café(x):\n    return x\n', lines(2), {
      recordFile: "/tmp/d'o\\r/rec.jsonl",
      path: 'ü/m.py',
      runtimeDir: '/tmp/rt/',
    });
    expect(result?.functions[0]?.id).toBe('ü/m.py#café');
    expect(result?.source).toContain("@_fixloop_probe.probe('\\xfc/m.py#caf\\xe9', '/tmp/d\\'o\\\\r/rec.jsonl')");
    expect(result?.source).toContain("'/tmp/rt/fixloop_probe.py'");
    expect(parses(result?.source ?? '')).toBe(true);
  });

  it('declines a file Python cannot parse, or one whose declared encoding the text may not keep', async () => {
    expect(await instrumentPython('def f(:\n    return 1\n', lines(2), target)).toBeNull();
    expect(await instrumentPython('# coding: latin-1\ndef f():\n    return "é"\n', lines(3), target)).toBeNull();
    expect(await instrumentPython('# coding: latin-1\ndef f():\n    return "e"\n', lines(3), target)).not.toBeNull();
  });

  it('gives a function the same id in two versions whose lines moved, and later same-named defs their rank', async () => {
    const before =
      'class T:\n    @property\n    def x(self):\n        return self._x\n\n    @x.setter\n    def x(self, v):\n        self._x = v\n';
    const after = `import os\n\n\n${before.replace('self._x = v', 'self._x = int(v)')}`;
    const one = await instrumentPython(before, lines(4, 8), target);
    const two = await instrumentPython(after, lines(11), target);
    expect(one?.functions.map((f) => [f.id, f.line])).toEqual([
      ['pkg/mod.py#T.x', 3],
      ['pkg/mod.py#T.x[2]', 7],
    ]);
    expect(two?.functions.map((f) => [f.id, f.line])).toEqual([['pkg/mod.py#T.x[2]', 10]]);
  });
});
