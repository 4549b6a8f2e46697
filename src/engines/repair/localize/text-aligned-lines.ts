// Lines of transformed code traced back to the file on disk by their text, where the transform left
// no map beside the code it ran (vitest 4 and later keep their source maps in the main process; the
// worker runs esbuild's or oxc's output with none). A transform that strips types and reprints the
// code keeps most statements as they were written: the two files' lines are aligned as a longest
// common subsequence (Myers' diff, the `diff` package), blanks, quote style and semicolons aside. A
// line the transform rewrote (a typed declaration) or that tells nothing on its own (`}`, `else {`)
// is not traced: no line is better than a wrong one.
import { diffArrays } from 'diff';

/**
 * A line's text as any printer would write it: no blanks, one quote style, no closing semicolon, no
 * parentheses (printers drop the ones precedence makes redundant: oxc prints `a || (b && c)` as
 * `a || b && c`, and the line that holds a function's whole body was then never traced).
 */
function normalized(line: string): string {
  return line.replace(/\s+/g, '').replace(/'/g, '"').replace(/;+$/, '').replace(/[()]/g, '');
}

/** Whether a normalized line says enough to be placed by its text: not a brace, `else {`, `return`. */
const telling = (text: string) => text.length >= 8 && /\w/.test(text);

/** Maps each line of `code` (1-based) to the line of `original` with the same text, in order. */
export function textAlignment(code: string, original: string): Map<number, number> {
  // Lines that tell nothing get a text no other line has, so they align with nothing.
  const keys = (text: string, side: string) =>
    text.split('\n').map((l, i) => (telling(normalized(l)) ? normalized(l) : `\0${side}${i}`));
  const aligned = new Map<number, number>();
  let a = 0;
  let b = 0;
  for (const change of diffArrays(keys(code, 'a'), keys(original, 'b'))) {
    const count = change.count ?? change.value.length;
    if (change.added) b += count;
    else if (change.removed) a += count;
    else {
      for (let i = 0; i < count; i++) aligned.set(a + i + 1, b + i + 1);
      a += count;
      b += count;
    }
  }
  return aligned;
}

export function alignedLines(lines: ReadonlySet<number>, alignment: ReadonlyMap<number, number>): Set<number> {
  const out = new Set<number>();
  for (const line of lines) {
    const to = alignment.get(line);
    if (to !== undefined) out.add(to);
  }
  return out;
}
