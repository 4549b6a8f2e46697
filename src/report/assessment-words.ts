// The words the headline and the report share for an assessment (docs/design.md §3.3): one behaviour change
// as `input: before → after`, the changes outside the failing tests, the ambiguous alternatives. Values
// come from the repository's code, so they are cut to a length and kept on one line.
import type { AlternativePatch, Assessment, BehaviourChange } from '../core/assessment.ts';
import { differingParts } from './value-difference.ts';

export const plural = (n: number, word: string, many = `${word}s`): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? word : many}`;

/** One line, at most `max` characters: a value printed by the repository's code can be anything. */
export function clip(text: string, max = 80): string {
  const line = text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Inline code that holds any text: a fence longer than the backticks inside. */
export function code(text: string, max = 80): string {
  const clipped = clip(text, max);
  const longest = Math.max(0, ...[...clipped.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = longest > 0 ? ' ' : '';
  return `${fence}${pad}${clipped}${pad}${fence}`;
}

/** Inline code in a table cell: a `|` inside would end the cell, so it is escaped (GitHub shows `|`). */
export function cellCode(text: string, max = 80): string {
  return code(text, max).replace(/\|/g, '\\|');
}

/**
 * How the probes shorten a long value (src/assess/js/probe-canon.cjs, src/assess/python/fixloop_probe_canon.py): its first 300
 * characters, `…`, its last 80, then `…#` and a hash of the whole.
 */
const SHORTENED = /…#[0-9a-f]{8,12}$/;
const SHORTENED_HEAD = 300;

/**
 * Two values cut to `max` each, as the part that differs (value-difference.ts): the keys whose
 * values differ of two objects, else the text with the start and end they share elided. A parser
 * state spelled out over hundreds of characters differs in one field, and two cells that both show
 * its identical start would tell the reviewer nothing.
 */
export function whereTheyDiffer(before: string, after: string, max: number): [string, string] {
  const [whole, wholeAfter] = [clip(before, Number.MAX_SAFE_INTEGER), clip(after, Number.MAX_SAFE_INTEGER)];
  // Shortened alike: their kept ends start at different places when their lengths differ, so only
  // from their ends can the shared part be told; their ends are what can show a difference.
  if (
    SHORTENED.test(whole) &&
    SHORTENED.test(wholeAfter) &&
    whole.slice(0, SHORTENED_HEAD) === wholeAfter.slice(0, SHORTENED_HEAD)
  )
    return [`…${whole.slice(1 - max)}`, `…${wholeAfter.slice(1 - max)}`];
  const [b, a] = differingParts(whole, wholeAfter);
  return [clip(b, max), clip(a, max)];
}

/** `` `isAbsolute('ab\\c')`: false → true ``: the change a reviewer decides on, at a glance. */
export function changeText(change: BehaviourChange, max = 40): string {
  const [before, after] = whereTheyDiffer(change.before, change.after, max);
  return `${code(change.input, 60)}: ${before} → ${after}`;
}

/** The changes outside the failing tests: the ones listed, and how many were found in all. */
export function outsideChanges(assessment: Assessment): { listed: BehaviourChange[]; count: number } {
  const listed = assessment.behaviourChanges.filter((c) => !c.nearFailing);
  // `counts.changes` holds every change found, the near-failing ones among them; the list may be capped.
  return { listed, count: Math.max(listed.length, assessment.counts.changes - assessment.counts.nearFailing) };
}

/** The alternatives that disagree with the chosen patch somewhere: an ambiguity the tests leave open. */
export function ambiguities(assessment: Assessment): AlternativePatch[] {
  return assessment.alternatives.filter((a) => a.disagreements.length > 0);
}
