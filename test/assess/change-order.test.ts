// The rows a report keeps when a patch changed more inputs than it shows: each function takes its turn.
import { describe, expect, it } from 'vitest';
import type { BehaviourChange } from '../../src/core/assessment.ts';
import { sharedByFunction } from '../../src/assess/change-order.ts';

const change = (fn: string, input: string): BehaviourChange => ({
  kind: 'generated',
  function: fn,
  location: `src/${fn}.js:1`,
  input: `${fn}(${input})`,
  before: 'false',
  after: 'true',
  nearFailing: false,
});

describe('the changes a report keeps', () => {
  it('gives every function its turn, in the order the changes came', () => {
    const changes = [...['1', '2', '3', '4', '5'].map((n) => change('isAbsolute', n)), change('isRooted', '9')];
    expect(sharedByFunction(changes, 3).map((c) => c.input)).toEqual(['isAbsolute(1)', 'isAbsolute(2)', 'isRooted(9)']);
  });

  it('keeps them all when they fit', () => {
    const changes = [change('a', '1'), change('b', '2')];
    expect(sharedByFunction(changes, 5)).toEqual(changes);
  });
});

describe('the changes a report keeps, by pattern', () => {
  const valued = (input: string, before: string, after: string): BehaviourChange => ({
    ...change('parse', input),
    before,
    after,
  });

  it('keeps each pattern of a function once before the others, and says how many share it', () => {
    const many = ['1', '2', '3', '4', '5', '6'].map((n) => valued(n, `'${n}'`, `'${n}/'`));
    const other = valued('7', "'7'", 'throws TypeError: x');
    const kept = sharedByFunction([...many, other], 3);
    expect(kept.map((c) => c.input)).toEqual(['parse(1)', 'parse(2)', 'parse(7)']);
    expect(kept.map((c) => c.alike)).toEqual([6, 6, undefined]);
  });
});
