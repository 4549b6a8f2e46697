// How the results of one suite call key (function, arguments, test: compare-records.ts) are paired
// between two runs: the n-th call with the n-th, never by proximity. Two calls with the same text of
// arguments can still differ in what the text does not show (a caller-supplied function is shown by
// its name, a deep option as `[…]`); the test makes them in the same order in every run, so the
// position pairs each with itself. When the runs made a different number of such calls (the patch
// calls the function more or less often; Python's probe keeps one record per distinct result), no
// position pairs them, and their results are compared as sets.

export interface PairedChange {
  before: string;
  after: string;
}

/** The results that differ between two runs of the same calls, `same` saying which results are the same behaviour. */
export function pairedChanges(
  was: readonly string[],
  now: readonly string[],
  same: (a: string, b: string) => boolean,
): PairedChange[] {
  if (was.length === now.length) {
    const found = new Map<string, PairedChange>();
    was.forEach((before, k) => {
      const after = now[k] ?? '';
      // One row per distinct change: a test that calls it in a loop changes each call alike.
      if (!same(before, after)) found.set(`${before}\u0000${after}`, { before, after });
    });
    return [...found.values()];
  }
  const before = [...new Set(was)];
  const after = [...new Set(now)];
  return coveredBy(before, after, same) && coveredBy(after, before, same)
    ? []
    : [{ before: before.join(' | '), after: after.join(' | ') }];
}

/** Whether each of `these` results is the same behaviour as one of `those`. */
function coveredBy(these: readonly string[], those: readonly string[], same: (a: string, b: string) => boolean): boolean {
  const exact = new Set(those);
  return these.every((a) => exact.has(a) || those.some((b) => same(a, b)));
}
