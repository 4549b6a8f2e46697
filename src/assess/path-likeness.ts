// Which tests an input is like, by the path the original program takes on it (PATCH-SIM, ICSE 2018):
// an input whose path through the changed function is closer to a passing test's path than to any
// failing test's is where the tests say the old behaviour was right, so a change there is for a
// person to see. (A path like a failing test's does not make a change expected on its own: the
// original may run a right and a wrong input the same way; compare-records.ts.) Paths are sets (of
// statement markers or lines, probe-record.ts `path`), compared by Jaccard distance; a tie decides nothing.

export type PathSide = 'failing' | 'passing';

/** 1 − |a ∩ b| / |a ∪ b|; two empty paths are the same path. */
export function pathDistance(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const k of a) if (b.has(k)) shared++;
  return 1 - shared / (a.size + b.size - shared);
}

function nearest(path: ReadonlySet<number>, others: Iterable<ReadonlySet<number>>): number {
  let best = Infinity;
  for (const other of others) {
    best = Math.min(best, pathDistance(path, other));
    if (best === 0) break;
  }
  return best;
}

/**
 * The side `path` is strictly closer to, or undefined: no path on one side to compare with, or as
 * close to both (a function every test runs the same way, as an off-by-one in a slice).
 */
export function pathSide(
  path: ReadonlySet<number>,
  failing: readonly ReadonlySet<number>[],
  passing: readonly ReadonlySet<number>[],
): PathSide | undefined {
  if (failing.length === 0 || passing.length === 0) return undefined;
  const toFailing = nearest(path, failing);
  const toPassing = nearest(path, passing);
  if (toFailing < toPassing) return 'failing';
  if (toPassing < toFailing) return 'passing';
  return undefined;
}

/** Distinct paths, as sets, from the records' sorted arrays. */
export function distinctPaths(paths: Iterable<readonly number[]>): ReadonlySet<number>[] {
  const seen = new Map<string, ReadonlySet<number>>();
  for (const path of paths) {
    const key = path.join(',');
    if (!seen.has(key)) seen.set(key, new Set(path));
  }
  return [...seen.values()];
}

/**
 * Which tests' path the original program takes on a generated input through `fn`: the failing
 * tests' or the passing tests' (every other suite call's), when the paths tell them apart. `before`
 * and `near` as compare-records.ts indexes them (the suite's calls' paths; the failing tests' calls).
 */
export function pathLike(
  before: { suitePaths: ReadonlyMap<string, ReadonlyArray<{ call: string; path: number[] }>> },
  near: { calls: ReadonlySet<string>; paths: ReadonlyMap<string, number[][]> },
): (fn: string, path: number[] | undefined) => PathSide | undefined {
  const sides = new Map<string, { failing: ReadonlySet<number>[]; passing: ReadonlySet<number>[] }>();
  return (fn, path) => {
    if (!path) return undefined;
    let side = sides.get(fn);
    if (!side) {
      const passing = (before.suitePaths.get(fn) ?? []).filter((p) => !near.calls.has(p.call)).map((p) => p.path);
      side = { failing: distinctPaths(near.paths.get(fn) ?? []), passing: distinctPaths(passing) };
      sides.set(fn, side);
    }
    return pathSide(new Set(path), side.failing, side.passing);
  };
}
