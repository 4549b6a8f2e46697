import { describe, expect, it } from 'vitest';
import { variesOnlyToNamedValues } from '../../src/assess/named-values.ts';

const values = { strings: ["it's", 'km'], numbers: [212, 40], keys: ['unit'] };

describe('a generated input that gives an argument only a value the patch names', () => {
  it('is one when each argument it varied takes a number or a string of the changed lines', () => {
    expect(variesOnlyToNamedValues('5, 100', '5, 212', values)).toBe(true);
    // A literal `-40` is read as 40 by some parsers of the changed lines.
    expect(variesOnlyToNamedValues('5, 100', '5, -40', values)).toBe(true);
    expect(variesOnlyToNamedValues("'mi', 3", "'km', 3", values)).toBe(true);
    expect(variesOnlyToNamedValues("'mi', 3", "'it\\'s', 3", values)).toBe(true);
  });

  it('is none when it varied an argument to a value the patch does not name, or varied nothing', () => {
    expect(variesOnlyToNamedValues('5, 100', '5, 213', values)).toBe(false);
    expect(variesOnlyToNamedValues("'mi', 3", "'KM', 3", values)).toBe(false);
    expect(variesOnlyToNamedValues('5, 100', '212, 101', values)).toBe(false);
    expect(variesOnlyToNamedValues('5, 100', '5, 100', values)).toBe(false);
    expect(variesOnlyToNamedValues('5, 100', '5', values)).toBe(false);
  });
});
