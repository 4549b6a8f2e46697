// When the assessment looks again with the functions the failing tests call probed too (the entry
// points, entry-points.ts; docs/design.md §3.3). Nothing changed was reached, or it showed no change:
// the patch's effect reaches the program through them. Or the look found changes outside the failing
// tests at functions of the patch, often internal ones: the patch is at `review` already, and what a
// reviewer decides on (and a program that tells the right patch from a wrong one calls) is the public
// function the tests call, so the same changes are shown there too, with the input given to it. Or
// the changed functions' calls could not be varied (no argument is plain data, or a parser's state
// or a tree's node held beside them could not be copied), so nothing beyond the suite's own calls was
// tried, or only the fields of what they hold: the public function the tests call often takes plain
// data (a string, options), and inputs are generated around it.
import type { EntryReason } from './assessment-level.ts';

/** `outer`: changes outside the failing tests, shown again at the functions the failing tests call. */
export type EntryLookWhy = EntryReason | 'outer';

/** The second look for `outer` runs the suite on both versions and again for noise: four runs, and one to spare. */
export const OUTER_WHEN_LEFT = 5;

/** What the first look showed: null when nothing recorded a call. */
export interface FirstLook {
  changes: ReadonlyArray<{ nearFailing: boolean }>;
  /** Inputs generated around the suite's calls and compared in both versions. */
  generatedCompared?: number;
  /**
   * Those that varied an argument: a held object's fields varied alone (probe-fields.cjs) stay near
   * the suite's calls, and the public function the tests call may take plain data.
   */
  argumentsVaried?: number;
}

/** Why look again at the entry points (null: no need, or no time for an `outer` look). */
export function entryLookWhy(looked: FirstLook | null, time: { leftMs: number; suiteMs: number }): EntryLookWhy | null {
  if (!looked) return 'unreached';
  if (looked.changes.length === 0) return 'unchanged';
  const timeEnough = time.leftMs >= OUTER_WHEN_LEFT * Math.max(1, time.suiteMs);
  if (!looked.changes.some((c) => !c.nearFailing))
    return (looked.argumentsVaried ?? looked.generatedCompared) === 0 && timeEnough ? 'ungenerated' : null;
  return timeEnough ? 'outer' : null;
}

/**
 * Whether the second look stands: it ran to the end, and, for `outer`, it still shows a change
 * outside the failing tests (it only adds where they are seen; a run that lost them does not stand).
 */
export function secondLookStands(why: EntryLookWhy, ranBoth: boolean, second: FirstLook | null, firstLooked: boolean): boolean {
  if (!ranBoth) return false;
  if (why === 'outer') return second !== null && second.changes.some((c) => !c.nearFailing);
  // It stands when it generated what the first could not (it only adds inputs to those compared).
  if (why === 'ungenerated') return second !== null && (second.argumentsVaried ?? second.generatedCompared ?? 0) > 0;
  return second !== null || !firstLooked;
}
