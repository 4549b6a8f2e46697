// Where a patch edits a file, in the original's characters (the rivals' search tries edits there first).
import { describe, expect, it } from 'vitest';
import { editedSpans, touchesSpan } from '../../src/assess/edited-spans.ts';

const ORIGINAL = 'function f(a, b) {\n  if (a < b) return a;\n  return b;\n}\nconst g = (x) => x + 1;\n';

function spanTexts(before: string, after: string): string[] {
  return editedSpans(before, after).map(({ start, end }) => `${start}:${before.slice(start, end)}`);
}

describe('editedSpans', () => {
  it('narrows each hunk to the characters its sides do not share', () => {
    const after = ORIGINAL.replace('a < b', 'a <= b').replace('x + 1', 'x + 2');
    // `<` → `<=` inserts `=` after `<`: an empty span there, which an edit of `<` meets.
    expect(spanTexts(ORIGINAL, after)).toEqual([`${ORIGINAL.indexOf('< b') + 1}:`, `${ORIGINAL.indexOf('1;')}:1`]);
  });

  it('gives an insertion its place as an empty span, and a deletion the lines it removes', () => {
    const inserted = ORIGINAL.replace('  return b;\n', '  if (b == null) return 0;\n  return b;\n');
    const at = ORIGINAL.indexOf('  return b;');
    expect(editedSpans(ORIGINAL, inserted)).toEqual([{ start: at, end: at }]);
    const deleted = ORIGINAL.replace('  if (a < b) return a;\n', '');
    expect(spanTexts(ORIGINAL, deleted)).toEqual([`${ORIGINAL.indexOf('  if')}:  if (a < b) return a;`]);
  });

  it('says an edit touches a span when they overlap or meet', () => {
    const spans = [{ start: 10, end: 14 }];
    expect(touchesSpan({ start: 12, end: 13 }, spans)).toBe(true);
    expect(touchesSpan({ start: 14, end: 20 }, spans)).toBe(true);
    expect(touchesSpan({ start: 0, end: 9 }, spans)).toBe(false);
    expect(touchesSpan({ start: 15, end: 15 }, spans)).toBe(false);
  });
});
