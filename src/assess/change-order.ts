// The order a patch's behaviour changes are listed in (compare-records.ts): what a reviewer must look
// at first, the changes outside the failing tests, then the rest.
import type { BehaviourChange } from '../core/assessment.ts';

/** Outside the failing tests first, the suite's own calls before generated inputs, then by function and input. */
export function ordered(changes: BehaviourChange[]): BehaviourChange[] {
  const rank = (c: BehaviourChange) => (c.nearFailing ? 2 : 0) + (c.kind === 'generated' ? 1 : 0);
  return changes.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      a.function.localeCompare(b.function) ||
      a.input.length - b.input.length ||
      a.input.localeCompare(b.input),
  );
}

/**
 * At most `max` of `changes`, each function taking its turn, in their order: one function with many
 * changed inputs does not hide the others (the internal function the patch changed beside the public
 * one the tests call).
 */
export function sharedByFunction(changes: BehaviourChange[], max: number): BehaviourChange[] {
  if (changes.length <= max) return changes;
  const byFunction = new Map<string, BehaviourChange[]>();
  for (const change of changes) byFunction.set(change.function, [...(byFunction.get(change.function) ?? []), change]);
  const kept = new Set<BehaviourChange>();
  for (let round = 0; kept.size < max; round++)
    for (const list of byFunction.values()) {
      const change = list[round];
      if (change && kept.size < max) kept.add(change);
    }
  return changes.filter((change) => kept.has(change));
}
