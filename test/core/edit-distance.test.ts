// One edit distance for the configuration's key suggestions, the repair engine's typo template and the
// assessment's input likeness: plain Levenshtein, swaps of neighbours as one edit when asked, and an
// early answer past a bound.
import { describe, expect, it } from 'vitest';
import { editDistance } from '../../src/core/edit-distance.ts';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('flaw', 'lawn')).toBe(2);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('counts a swap of neighbours as two edits, or as one with transpositions', () => {
    expect(editDistance('tset', 'test')).toBe(2);
    expect(editDistance('tset', 'test', { transpositions: true })).toBe(1);
    expect(editDistance('maxAtempts', 'maxAttempts', { transpositions: true })).toBe(1);
    // Optimal string alignment: a swapped pair is not edited again.
    expect(editDistance('ca', 'abc', { transpositions: true })).toBe(3);
  });

  it('answers max + 1 once the distance must exceed max, and the distance itself within it', () => {
    expect(editDistance('background-attachemnt', 'background-attachment', { max: 2 })).toBe(2);
    expect(editDistance('short', 'a much longer text', { max: 2 })).toBe(3);
    expect(editDistance('abcdef', 'uvwxyz', { max: 2 })).toBe(3);
    expect(editDistance('abcdef', 'abcxyz', { max: 5 })).toBe(3);
    expect(editDistance('abcd', 'badc', { max: 1, transpositions: true })).toBe(2);
  });

  it('gives the same answer with a bound as without within it, and one past it beyond', () => {
    const words = ['', 'a', 'ab', 'ba', 'abc', 'acb', 'bca', 'test', 'tset', 'tent', 'attachment', 'attachemnt'];
    for (const a of words)
      for (const b of words)
        for (const transpositions of [false, true]) {
          const exact = editDistance(a, b, { transpositions });
          for (const max of [0, 1, 2, 3]) {
            const bounded = editDistance(a, b, { transpositions, max });
            if (exact <= max) expect(bounded).toBe(exact);
            else expect(bounded).toBeGreaterThan(max);
          }
        }
  });
});
