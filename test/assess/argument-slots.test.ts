import { describe, expect, it } from 'vitest';
import { argumentSlots, isDistinctLiteral, isFieldChange, literalValue } from '../../src/assess/argument-slots.ts';

describe('the arguments of a call, from their canonical text', () => {
  it('splits at the top level only, strings and containers whole, keyword arguments by name', () => {
    expect([...argumentSlots("'a, b', [1, 2], {k: 'v, w'}, flag=True")]).toEqual([
      ['0', "'a, b'"],
      ['1', '[1, 2]'],
      ['2', "{k: 'v, w'}"],
      ['flag', 'True'],
    ]);
    expect([...argumentSlots('"it\\"s, x", 3')]).toEqual([
      ['0', '"it\\"s, x"'],
      ['1', '3'],
    ]);
    expect([...argumentSlots('')]).toEqual([]);
    // A held object's field the probe set otherwise (probe-fields.cjs) is a slot of its own.
    expect([...argumentSlots("Cursor { at: 4 }, arg1.at=5, this._name='x'")]).toEqual([
      ['0', 'Cursor { at: 4 }'],
      ['arg1.at', '5'],
      ['this._name', "'x'"],
    ]);
  });

  it("tells an input that set a held object's field from one that varied an argument", () => {
    expect(['this.width=7', 'Cursor { at: 4 }, arg1.at=5', "Cursor { at: 4 }, arg12._x=''"].map(isFieldChange)).toEqual([
      true,
      true,
      true,
    ]);
    expect(["'this.width=7'", 'flag=True', "'a', 3", '', '{ this.x=1 }'].map(isFieldChange)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('calls a string of data or a non-zero number a distinct literal, not an edge, a container or a name', () => {
    expect(['"X(hi)X"', "'Hello World'", "b'x y'", "'a/b'", '73', '-1.5'].map(isDistinctLiteral)).toEqual(Array(6).fill(true));
    expect(["''", '""', '0', 'None', 'null', 'true', '[1]', '{}', "'a' + 'b'"].map(isDistinctLiteral)).toEqual(
      Array(9).fill(false),
    );
    // A key a fix may add a case for: a style, an option, a keyword.
    expect(["'title'", "'__proto__'", "'max-age'", "b'AS'"].map(isDistinctLiteral)).toEqual(Array(4).fill(false));
  });
});

describe('the value an argument spells', () => {
  it('is a number or a string, its escapes undone, and nothing for a name, a container or a bytes literal', () => {
    expect(literalValue('-40')).toBe(-40);
    expect(literalValue('1e15')).toBe(1e15);
    expect(literalValue("'it\\'s'")).toBe("it's");
    expect(literalValue('"a\\\\b"')).toBe('a\\b');
    expect(literalValue("''")).toBe('');
    expect([literalValue('null'), literalValue('[1, 2]'), literalValue("b'x'"), literalValue("'a', 'b'")]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
});
