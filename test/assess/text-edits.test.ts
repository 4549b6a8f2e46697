import { describe, expect, it } from 'vitest';
import { sameEdits, textEdits } from '../../src/assess/text-edits.ts';

const SEP = '\u0000';
const edit = (...parts: string[]) => parts.join(SEP);

describe('the edits of a text result', () => {
  it('are the runs removed and added between the parts both texts keep, each once, with what is beside them', () => {
    expect(textEdits("'custom \\n help \\n output'", "'custom\\n help\\n output'")).toEqual(new Set([edit('w', ' ', '', '\\')]));
    expect(textEdits("'a Red'", "'a red'")).toEqual(new Set([edit(' ', 'R', 'r', 'w')]));
  });

  it('are told of any value that keeps more than it changes, a long one by its visible parts', () => {
    expect(textEdits("re.compile('^a+$')", "re.compile('\\Aa+\\Z')")).toEqual(
      new Set([edit("'", '^', '\\A', 'w'), edit('+', '$', '\\Z', "'")]),
    );
    expect(textEdits("f('(d+.d+)…a)'…#0123456789ab)", "f('(d*.d+)…ab)'…#ba9876543210)")).toEqual(
      new Set([edit('w', '+', '*', '.')]),
    );
  });

  it('are not told for a number, a boolean or a null, or a text replaced more than kept', () => {
    expect(textEdits('10000', '10001')).toBeNull();
    expect(textEdits('true', 'false')).toBeNull();
    expect(textEdits('false', 'true')).toBeNull();
    expect(textEdits('10', '11')).toBeNull();
    expect(textEdits("'ab'", "'xyz'")).toBeNull();
    expect(textEdits("'same'", "'same'")).toBeNull();
  });

  it('match a change made only of edits the failing tests demanded, in the same surroundings', () => {
    const demanded = textEdits("'insa \\n a commodo'", "'insa\\n a commodo'") ?? undefined;
    expect(sameEdits("'cheese \\n type'", "'cheese\\n type'", demanded)).toBe(true);
    // The same blank dropped between two words, or at the start: another kind of change.
    expect(sameEdits("'cheese type'", "'cheesetype'", demanded)).toBe(false);
    expect(sameEdits("' cheese'", "'cheese'", demanded)).toBe(false);
    // Next to the same character on one side is enough: an anchor dropped after the opening quote.
    const anchors = textEdits("'^(a)'", "'(a)'") ?? undefined;
    expect(sameEdits("'^ *b'", "' *b'", anchors)).toBe(true);
    // Another edit beside it, or none demanded: not the fix's own kind of change.
    expect(sameEdits("'cheese \\n Type'", "'cheese\\n type'", demanded)).toBe(false);
    expect(sameEdits("'cheese \\n type'", "'cheese\\n type'", undefined)).toBe(false);
  });
});
