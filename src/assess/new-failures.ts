// An input the patched program throws on is not the change the failing tests asked for, near them or
// not (docs/design.md §3.3), unless the fix makes one of their own calls throw (a check added): an
// input the original answered (a regression, as an added fallback that fails on an empty or missing
// value), or one the original failed on as on a failing test's call (the bug's own class, left failing).

const SEP = '\u0000';

/** A result that throws (a probe's own timeout aside: a slow run, not the code). */
function throws(out: string): boolean {
  return out.startsWith('throws ') && !out.startsWith('throws ProbeTimeout');
}

/** Whether the fix makes a failing test's call throw, from their changes (`before SEP after`, by call). */
export function fixThrows(failingChanges: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  return [...failingChanges.values()].some((changes) => [...changes].some((c) => throws(c.slice(c.indexOf(SEP) + 1))));
}

/** Whether a generated input's change is a failure the fix should not leave or make. */
export function failsAfterFix(was: string, now: string, sameFailure: boolean, fixMakesThrow: boolean): boolean {
  return !fixMakesThrow && throws(now) && (!throws(was) || sameFailure);
}
