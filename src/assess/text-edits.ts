// A fix generalizes (docs/design.md §3.3): where the failing tests demanded an edit of a text (a
// blank dropped before a line break, a letter lowered), the fix makes the same edit in other texts
// the function returns, and that is the fix at work, not something else it changed. A change of a
// text result is described by its edits: each run of characters removed and added between parts the
// two texts keep, with what is beside it (a letter or digit, or the very character: a blank dropped
// before a line break is not one dropped between two words, nor one at the text's start). Only
// results that keep more than they change are described so, and never a number, a boolean or a null:
// a flip of a short value (`false` → `true`, `10` → `11`) is a replacement whose "edit" any broadened
// condition repeats, and says nothing of what kind of change it is.
import { diffChars } from 'diff';
import type { BehaviourChange } from '../core/assessment.ts';

/** Longer results are not diffed: the probes cut long values to their ends and a hash anyway. */
const MAX_TEXT = 2000;
const SEP = '\u0000';
/** A value with no text in it to edit: a number, a boolean, a null. */
const SCALAR = /^(?:-?[\d.]+(?:e[+-]?\d+)?|true|false|True|False|null|undefined|None|NaN|-?Infinity)$/;
/** Where the probes cut a long value (its start, `…`, its end and a hash of it all): past it the two texts are cut at other places. */
const ELIDED = /…[\s\S]*#[0-9a-f]{8,}/;

/** The edits that turn `before` into `after` (`left SEP removed SEP added SEP right` each, once), or null when the value is not one mostly kept. */
export function textEdits(before: string, after: string): Set<string> | null {
  if (before === after || before.length > MAX_TEXT || after.length > MAX_TEXT) return null;
  if (SCALAR.test(before) || SCALAR.test(after)) return null;
  // A long value by its start: what follows the first cut is another slice of each.
  if (ELIDED.test(before) && ELIDED.test(after))
    return textEdits(before.slice(0, before.indexOf('…')), after.slice(0, after.indexOf('…')));
  const edits = new Set<string>();
  let kept = 0;
  let changed = 0;
  let removed = '';
  let added = '';
  let left = '';
  const flush = (right: string) => {
    if (removed || added) edits.add([left, removed, added, right].join(SEP));
    removed = '';
    added = '';
  };
  for (const part of diffChars(before, after)) {
    if (part.removed) removed += part.value;
    else if (part.added) added += part.value;
    else {
      flush(kind(part.value[0]));
      left = kind(part.value.at(-1));
      kept += part.value.length;
      continue;
    }
    changed += part.value.length;
  }
  flush('');
  return kept > changed ? edits : null;
}

/** What is beside an edit: a letter or digit as one kind, any other character as itself, nothing at a text's end. */
function kind(ch: string | undefined): string {
  return ch === undefined ? '' : /\w/.test(ch) ? 'w' : ch;
}

/**
 * Whether every edit of `before` → `after` is one of `demanded` (the edits of the changes near the
 * failing tests): the same text removed and added next to the same character on one side at least
 * (`^` → `\\A` after a pattern's opening quote, whatever follows it), a letter or digit being no
 * anchor (a blank dropped between two words is not one dropped before a line break).
 */
export function sameEdits(before: string, after: string, demanded: ReadonlySet<string> | undefined): boolean {
  if (!demanded || demanded.size === 0) return false;
  const edits = textEdits(before, after);
  if (edits === null || edits.size === 0) return false;
  const known = [...demanded].map((e) => e.split(SEP));
  return [...edits].every((e) => {
    const [left, removed, added, right] = e.split(SEP);
    return known.some(
      ([l, r, a, rt]) => r === removed && a === added && ((l === left && l !== 'w') || (rt === right && rt !== 'w')),
    );
  });
}

/** A function's change, by where it is: two functions may share a name. */
const functionOf = (c: BehaviourChange) => `${c.location} ${c.function}`;

/**
 * A fix generalizes: a change outside the failing tests made only of the text edits (text-edits.ts)
 * that the function's changes near them made, in the same surroundings (a blank dropped before a
 * line break, as the failing tests demanded, in a text no test wrote), is the fix at work elsewhere,
 * and is marked near. `candidates` are the changes that may be: a passing test's call (its test
 * passes with the edit), a generated input (not on a passing test's path, not a new throw).
 */
export function generalized(changes: BehaviourChange[], candidates: readonly number[]): void {
  const demanded = new Map<string, Set<string>>();
  for (const c of changes) {
    const edits = c.nearFailing ? textEdits(c.before, c.after) : null;
    if (edits) demanded.set(functionOf(c), new Set([...(demanded.get(functionOf(c)) ?? []), ...edits]));
  }
  for (const i of candidates) {
    const c = changes[i];
    if (c && sameEdits(c.before, c.after, demanded.get(functionOf(c)))) c.nearFailing = true;
  }
}
