// How many single-character edits turn one text into another (Levenshtein), for every stage that
// asks: a misspelt configuration key (src/config/known-keys.ts, where a swap of neighbours is one
// slip), a string literal one typo from another (the repair engine's typo template, which needs to
// know only whether the distance is within a bound), how alike two of the assessment's inputs are.
// A plain dynamic programme, one row at a time: callers pass words, literals or a few hundred characters.

export interface EditDistanceOptions {
  /** A swap of neighbours (`tset` → `test`) counts as one edit, not two (optimal string alignment). */
  transpositions?: boolean;
  /**
   * Past this, the exact distance does not matter: the answer is exact up to `max`, and beyond it only
   * more than `max` (`max + 1` as soon as the rows show the distance must exceed it).
   */
  max?: number;
}

export function editDistance(a: string, b: string, options: EditDistanceOptions = {}): number {
  const transpositions = options.transpositions ?? false;
  const max = options.max ?? Infinity;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let distance = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, (beforePrevious[j - 2] ?? 0) + 1);
      current[j] = distance;
    }
    // Every later row is at least the smallest of this one (and, with swaps, of the one before).
    if (rowMinimum(current) > max && (!transpositions || rowMinimum(previous) > max)) return max + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function rowMinimum(row: readonly number[]): number {
  let least = Infinity;
  for (const value of row) if (value < least) least = value;
  return least;
}
