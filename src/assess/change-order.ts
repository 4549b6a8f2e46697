// The order a patch's behaviour changes are listed in (compare-records.ts): what a reviewer must look
// at first, the changes outside the failing tests, then the rest.
import type { BehaviourChange } from '../core/assessment.ts';
import { changePattern } from '../report/change-rows.ts';

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
 * one the tests call). Within a function, each pattern of change (report/change-rows.ts) is kept once
 * before any other change of one, so 800 inputs changed one way do not hide 5 changed another; a kept
 * change says how many of `changes` share its pattern (`alike`), for the report's counts.
 */
export function sharedByFunction(changes: BehaviourChange[], max: number): BehaviourChange[] {
  if (changes.length <= max) return changes;
  const patternOf = new Map(changes.map((change) => [change, changePattern(change)]));
  const byPattern = Map.groupBy(changes, (change) => patternOf.get(change) ?? '');
  const firsts = new Set([...byPattern.values()].map((list) => list[0]));
  const byFunction = Map.groupBy(changes, (change) => change.function);
  // Each pattern's first change before the others, which keep their order (the shortest inputs first).
  const later = (change: BehaviourChange) => Number(!firsts.has(change));
  for (const list of byFunction.values()) list.sort((a, b) => later(a) - later(b));
  const kept = new Set<BehaviourChange>();
  for (let round = 0; kept.size < max; round++)
    for (const list of byFunction.values()) {
      const change = list[round];
      if (change && kept.size < max) kept.add(change);
    }
  return changes
    .filter((change) => kept.has(change))
    .map((change) => withAlike(change, byPattern.get(patternOf.get(change) ?? '')?.length ?? 1));
}

function withAlike(change: BehaviourChange, alike: number): BehaviourChange {
  return alike > 1 ? { ...change, alike } : change;
}
