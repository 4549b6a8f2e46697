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

/**
 * An error as a kind: its type and the first words its message starts with (`YAMLException: bad
 * indentation of a mapping`), the positions, paths and values after them left out; null for a
 * result that does not throw, or whose message does not start with at least three words.
 */
export function errorKind(out: string): string | null {
  if (!throws(out)) return null;
  const m = /^throws ([\w$.]+): ([A-Za-z][A-Za-z ]*)/.exec(out);
  const words = m?.[2]?.trim().split(/\s+/) ?? [];
  return m && words.length >= MIN_WORDS ? `${m[1]}: ${words.slice(0, MAX_WORDS).join(' ')}` : null;
}

/** Fewer words than this say too little of which check threw (`TypeError: bad`). */
const MIN_WORDS = 3;
/** The words compared: past them a message often goes on into its input (`… entry in "a.yml"`). */
const MAX_WORDS = 5;

/**
 * The errors the fix makes the failing tests' calls throw where the original did not throw them (a
 * check the fix added or moved). A passing test's call that now throws one of them still passes: its
 * test expects an error there (the original's, or one further on) or the code catches it, so that
 * input meets the check the failing tests demanded; it is not something the patch changed besides.
 */
export function fixErrors(failingChanges: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const found = new Set<string>();
  for (const change of [...failingChanges.values()].flatMap((c) => [...c])) {
    const [before = '', after = ''] = change.split(SEP);
    const kind = errorKind(after);
    if (kind && kind !== errorKind(before)) found.add(kind);
  }
  return found;
}
