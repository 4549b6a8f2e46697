// The values a patch's changed lines name, read from its hunks, that generated inputs are made from.
import { describe, expect, it } from 'vitest';
import { changeValues, literalsOf, valuesOfVersions } from '../../src/assess/change-values.ts';

describe('the literals of a changed line', () => {
  it('reads strings, numbers and the members a JavaScript line reads, and stops at a comment', () => {
    expect(
      literalsOf(`  if (url.startsWith('https:') || opts?.windows && n > 10) return "a\\"b"; // 'not this' 7`, false),
    ).toEqual({
      strings: ['https:', 'a"b'],
      numbers: [10],
      members: ['startsWith', 'windows'],
    });
  });

  it('leaves out a template with a placeholder, a digit inside a name, and a Python f-string', () => {
    expect(literalsOf('const s = `${a}x` + `plain` + utf8 + 0x1f;', false)).toEqual({
      strings: ['plain'],
      numbers: [31],
      members: [],
    });
    expect(literalsOf(`    if key == f"{x}" or key == 'id' or n >= 2.5:  # "no"`, true)).toEqual({
      strings: ['id'],
      numbers: [2.5],
      members: [],
    });
  });
});

describe('the values of a patch', () => {
  it('takes them from the removed and the added lines only, not the context, and no builtin member as a key', () => {
    const hunk = {
      oldStart: 1,
      oldLines: 3,
      newStart: 1,
      newLines: 3,
      lines: [
        " const base = 'ctx';",
        "-if (s === 'http:') return s.length > 3;",
        "+if (s.toLowerCase() === 'https:' && o.strict) return 5;",
      ],
    };
    expect(changeValues([{ path: 'src/a.ts', hunks: [hunk] }])).toEqual({
      strings: ['http:', 'https:'],
      numbers: [3, 5],
      keys: ['strict'],
    });
  });

  it('reads every version against the original, in probed files only', () => {
    const originals = new Map<string, string | null>([
      ['lib/x.py', 'def f(n):\n    return n > 10\n'],
      ['tests/test_x.py', 'assert f(99)\n'],
    ]);
    const versions = [
      { name: 'patch', files: new Map([['lib/x.py', 'def f(n):\n    return n >= 10\n']]) },
      {
        name: 'rival',
        files: new Map([
          ['lib/x.py', 'def f(n):\n    return n > 9\n'],
          ['tests/test_x.py', 'assert f(42)\n'],
        ]),
      },
    ];
    expect(valuesOfVersions(originals, versions, (path) => !path.startsWith('tests/'))).toEqual({
      strings: [],
      numbers: [10, 9],
      keys: [],
    });
  });
});
