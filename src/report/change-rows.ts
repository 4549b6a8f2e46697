// The rows of the report's tables (docs/design.md §3.3): changes of one function that do the same
// thing (the same core of difference, value-difference.ts) are one row with a count, since a reviewer
// decides on a pattern once, not 31 times; and the rows where another plausible patch gives another
// result come first, since those are the inputs the tests leave undecided.
import type { AlternativePatch, BehaviourChange } from '../core/assessment.ts';
import { changeCore } from './value-difference.ts';

export interface Row<T> {
  /** The one shown: a disputed one when the pattern has any. */
  shown: T;
  /** How many of the list this row stands for. */
  count: number;
  /** Another plausible patch disagrees with this one on one of its inputs. */
  disputed: boolean;
}

type Disagreement = AlternativePatch['disagreements'][number];

/** The called function of an input written as a call (`Parser.parse(x)` → `Parser.parse`). */
const calledIn = (input: string) => /^[^(]*/.exec(input)?.[0] ?? input;

function merged<T>(items: readonly T[], key: (item: T) => string, disputed: (item: T) => boolean): Row<T>[] {
  const rows = new Map<string, Row<T>>();
  for (const item of items) {
    const k = key(item);
    const row = rows.get(k);
    const isDisputed = disputed(item);
    if (!row) rows.set(k, { shown: item, count: 1, disputed: isDisputed });
    else {
      row.count++;
      if (isDisputed && !row.disputed) Object.assign(row, { shown: item, disputed: true });
    }
  }
  // Disputed rows first; otherwise the order the list came in.
  return [...rows.values()].sort((a, b) => Number(b.disputed) - Number(a.disputed));
}

/** The inputs on which some other plausible patch gives another result than this one. */
export function disputedInputs(alternatives: readonly AlternativePatch[]): Set<string> {
  return new Set(alternatives.flatMap((a) => a.disagreements.map((d) => d.input)));
}

/**
 * What a change does, as one key: its function and the core of its difference. A change on an input
 * the original ran as a passing test says more than the others: its own pattern.
 */
export function changePattern(change: BehaviourChange): string {
  return `${change.function}\0${changeCore(change.before, change.after)}\0${change.pathLike ?? ''}`;
}

export function changeRows(changes: readonly BehaviourChange[], disputed: ReadonlySet<string>): Row<BehaviourChange>[] {
  const patternOf = new Map(changes.map((c) => [c, changePattern(c)]));
  const pattern = (c: BehaviourChange) => patternOf.get(c) ?? '';
  // The assessment keeps a few of a pattern's changes and says how many it found (`alike`).
  const found = new Map<string, number>();
  for (const c of changes) found.set(pattern(c), Math.max(found.get(pattern(c)) ?? 1, c.alike ?? 1));
  return merged(changes, pattern, (c) => disputed.has(c.input)).map((row) => ({
    ...row,
    count: Math.max(row.count, found.get(pattern(row.shown)) ?? 1),
  }));
}

/** An alternative's disagreements, one row per pattern (what it and this patch give, at one function). */
export function disagreementRows(disagreements: readonly Disagreement[]): Row<Disagreement>[] {
  return merged(
    disagreements,
    (d) => `${calledIn(d.input)}\0${changeCore(d.chosen, d.alternative)}\0${d.atFailingTests ? 'own' : ''}`,
    () => false,
  );
}
