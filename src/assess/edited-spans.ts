// Where a patch edits a file, in the original's characters: for each hunk, the part its removed lines
// and its added lines do not share (their common start and end trimmed), or the place of an insertion
// as an empty span. The rivals' search tries first the one-edit patches that touch these spans
// (one-edit-rivals.ts): an edit of the tokens the patch itself changed is the likeliest to pass the
// failing tests too, and to disagree with the patch where the tests do not look.
import { structuredPatch } from 'diff';
import { changedRanges } from '../engines/repair/weakening/site-facts.ts';

export interface Span {
  start: number;
  end: number;
}

export function editedSpans(before: string, after: string): Span[] {
  const { hunks } = structuredPatch('a', 'b', before, after, undefined, undefined, { context: 0 });
  const lineStarts = startsOfLines(before);
  return hunks.map((hunk) => {
    const removed = sideText(hunk.lines, '-');
    const added = sideText(hunk.lines, '+');
    // A hunk with no old lines inserts before line `oldStart` (the `diff` library's convention).
    const at = lineStarts[hunk.oldStart - 1] ?? before.length;
    const changed = changedRanges(removed, added).before;
    return { start: at + changed.start, end: at + changed.end };
  });
}

/** Whether an edit `[start, end)` of the original touches a span (an insertion at a span's edge does). */
export function touchesSpan(edit: Span, spans: readonly Span[]): boolean {
  return spans.some((span) => edit.start <= span.end && edit.end >= span.start);
}

/** The lines of one side of a hunk, as the file has them (each with its newline but the last). */
function sideText(lines: readonly string[], sign: '-' | '+'): string {
  return lines
    .filter((line) => line.startsWith(sign))
    .map((line) => line.slice(1))
    .join('\n');
}

function startsOfLines(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
