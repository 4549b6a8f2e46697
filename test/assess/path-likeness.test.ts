import { describe, expect, it } from 'vitest';
import { distinctPaths, pathDistance, pathSide } from '../../src/assess/path-likeness.ts';

const set = (...k: number[]) => new Set(k);

describe('the paths a call takes', () => {
  it('are as far apart as the share of markers they do not have in common', () => {
    expect(pathDistance(set(0, 1), set(0, 1))).toBe(0);
    expect(pathDistance(set(0, 1), set(2, 3))).toBe(1);
    expect(pathDistance(set(0, 2, 4, 5), set(0, 2, 4, 6))).toBeCloseTo(1 - 3 / 5);
    expect(pathDistance(set(), set())).toBe(0);
    expect(pathDistance(set(), set(1))).toBe(1);
  });

  it("tell the failing tests' side from the passing tests' by the nearest path, and nothing on a tie", () => {
    const failing = [set(0, 2, 4, 5)];
    const passing = [set(0, 1), set(0, 2, 3)];
    expect(pathSide(set(0, 2, 4, 5), failing, passing)).toBe('failing');
    expect(pathSide(set(0, 2, 4), failing, passing)).toBe('failing');
    expect(pathSide(set(0, 1), failing, passing)).toBe('passing');
    // Every test runs the function the same way: the path cannot tell.
    expect(pathSide(set(0, 1), [set(0, 1)], [set(0, 1)])).toBeUndefined();
    // Nothing to compare with on one side.
    expect(pathSide(set(0, 1), [], passing)).toBeUndefined();
    expect(pathSide(set(0, 1), failing, [])).toBeUndefined();
  });

  it('are kept once each', () => {
    expect(distinctPaths([[0, 1], [0, 1], [2]]).map((p) => [...p])).toEqual([[0, 1], [2]]);
  });
});
