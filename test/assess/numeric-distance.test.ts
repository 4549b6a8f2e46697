import { describe, expect, it } from 'vitest';
import { numericDistance } from '../../src/assess/numeric-distance.ts';

describe('how far two inputs that differ only in numbers are', () => {
  it('adds the differences of the numbers in the same places', () => {
    expect(numericDistance('-95', '20')).toBe(115);
    expect(numericDistance('-95', '95')).toBe(190);
    expect(numericDistance('[1, 2, 3], 3, 0', '[1, 2, 3], 3, 2')).toBe(2);
    expect(numericDistance("{ size: 0.5 }, 'x'", "{ size: 2 }, 'x'")).toBe(1.5);
    expect(numericDistance('1e+21', '0')).toBe(1e21);
  });

  it("reads both probes' special numbers: NaN and infinities are far from everything but themselves", () => {
    expect(numericDistance('NaN', 'NaN')).toBe(0);
    expect(numericDistance('nan', '1')).toBe(Infinity);
    expect(numericDistance('-inf', '-Infinity')).toBe(0);
    expect(numericDistance('Infinity', '3')).toBe(Infinity);
  });

  it('says nothing of inputs that differ in more than numbers, or hold none', () => {
    expect(numericDistance("'20'", "'95'")).toBeNull();
    expect(numericDistance("'a', 1", "'b', 1")).toBeNull();
    expect(numericDistance('[1, 2], 3', '[1], 3')).toBeNull();
    expect(numericDistance("'x'", "'x'")).toBeNull();
    // Digits in a name or a string are not numbers.
    expect(numericDistance('Point(x1=3)', 'Point(x1=4)')).toBe(1);
    expect(numericDistance("'it\\'s 1', 2", "'it\\'s 1', 5")).toBe(3);
  });
});
