// What the weakening rules read of one version of a changed file, whatever its language: the
// front ends (js-facts.ts, weakening_facts.py) fill it in, weakens-check.ts compares two of them.
import type { Cond } from './condition.ts';

/** The innermost condition (of an `if`, a loop or a `?:`) whose test holds the changed text. */
export interface ChangedCondition {
  /** Offset of the test's start: the same test before and after a change starts at the same place. */
  start: number;
  /** `if`, `while`, `for`, `?:`, as written in the reasons. */
  statement: string;
  test: Cond;
  /**
   * When the statement is an `if` whose branch throws, raises, returns an error or rejects: what
   * that check does, in words (`throws "Invalid value"`), and on which value of the test it fires.
   */
  guards?: { check: string; firesWhen: boolean };
}

export interface SiteFacts {
  /** Every `throw`/`raise` of the file, as short text (counted: one fewer is a throw removed). */
  throws: string[];
  /** Every statement of the file that is a call alone (`desc.push('')`), by its text. */
  calls: string[];
  condition: ChangedCondition | null;
}

/** The changed text of one version: [start, end) offsets, from the common prefix and suffix of both. */
export interface ChangedRange {
  start: number;
  end: number;
}

/** The changed ranges of `before` and `after`: what lies between their longest common prefix and suffix. */
export function changedRanges(before: string, after: string): { before: ChangedRange; after: ChangedRange } {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  return { before: { start: head, end: before.length - tail }, after: { start: head, end: after.length - tail } };
}
