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
