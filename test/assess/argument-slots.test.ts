import { describe, expect, it } from 'vitest';
import { argumentSlots, isDistinctLiteral } from '../../src/assess/argument-slots.ts';

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
  });

  it('calls a non-empty string or a non-zero number a distinct literal, not an edge or a container', () => {
    expect(['"X(hi)X"', "'a'", "b'x'", '73', '-1.5'].map(isDistinctLiteral)).toEqual([true, true, true, true, true]);
    expect(["''", '""', '0', 'None', 'null', 'true', '[1]', '{}', "'a' + 'b'"].map(isDistinctLiteral)).toEqual(
      Array(9).fill(false),
    );
  });
});
