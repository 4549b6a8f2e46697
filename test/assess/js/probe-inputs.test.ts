// The generated inputs of the JavaScript probe's runtime, on its own: dates are varied by a day,
// two and a week either way (a due date, a weekday), from a copy, whatever realm made them.
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { allPlainData, copy, neighbours } = require('../../../src/assess/js/probe-inputs.cjs') as {
  allPlainData: (args: unknown[]) => boolean;
  copy: (value: unknown) => unknown;
  neighbours: (
    args: unknown[],
    nullable: Map<number, unknown[]>,
    values?: { strings: string[]; numbers: number[]; keys: string[] } | null,
    held?: ReadonlySet<number>,
    bounded?: boolean,
  ) => unknown[][];
};

describe('generated inputs around a date', () => {
  it('shifts a date argument a day, two days and a week either way, and leaves the other argument as it was', () => {
    const issued = new Date('2026-11-01T00:00:00.000Z');
    const around = neighbours([issued, 7], new Map()).filter((args) => args.length === 2 && args[1] === 7);
    expect(around.map((args) => (args[0] as Date).toISOString().slice(0, 10))).toEqual([
      '2026-11-02',
      '2026-10-31',
      '2026-11-03',
      '2026-10-30',
      '2026-11-08',
      '2026-10-25',
    ]);
    expect(issued.toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  it('takes a date of another realm as plain data and copies it into a date of its own', () => {
    const foreign = runInNewContext('new Date(0)') as Date;
    expect(foreign instanceof Date).toBe(false);
    expect(allPlainData([foreign, { when: foreign }])).toBe(true);
    const copied = copy(foreign) as Date;
    expect(copied).not.toBe(foreign);
    expect(copied.getTime()).toBe(0);
  });
});

describe('generated inputs beside a regular expression', () => {
  it('copies the expression and varies the arguments beside it', () => {
    const pattern = /^a.*$/gi;
    expect(allPlainData(['abc', pattern])).toBe(true);
    const around = neighbours(['abc', pattern], new Map()).filter((args) => args.length === 2);
    expect(around.some((args) => args[0] === 'ab')).toBe(true);
    const copied = around[0]?.[1] as RegExp;
    expect(copied).not.toBe(pattern);
    expect([copied.source, copied.flags]).toEqual(['^a.*$', 'gi']);
  });

  it("takes an expression that carries what compiled it (picomatch's `regex.state`), and keeps that on the copy", () => {
    const bos: Record<string, unknown> = { type: 'bos' };
    bos['prev'] = bos;
    const pattern = Object.assign(/^a$/, { state: { input: 'a', negated: false, tokens: [bos] } });
    expect(allPlainData(['abc', pattern])).toBe(true);
    const around = neighbours(['abc', pattern], new Map()).filter((args) => args.length === 2);
    const copied = around[0]?.[1] as RegExp & { state: unknown };
    expect(copied).not.toBe(pattern);
    expect(copied.state).toBe(pattern.state);
    expect(copied.test('a')).toBe(true);
  });
});

describe('generated inputs inside objects and arrays', () => {
  it('moves a number field one either way and to zero, the rest of the object as it was', () => {
    const around = neighbours([{ sku: 'a', stock: 3 }], new Map()).map((args) => args[0]);
    expect(around).toEqual(
      expect.arrayContaining([
        { sku: 'a', stock: 4 },
        { sku: 'a', stock: 2 },
        { sku: 'a', stock: 0 },
      ]),
    );
  });

  it("varies an array's first item as a value of its own, keeping the others", () => {
    const items = [
      { sku: 'a', stock: 3 },
      { sku: 'b', stock: 0 },
    ];
    const around = neighbours([items], new Map()).map((args) => args[0]);
    expect(around).toContainEqual([
      { sku: 'a', stock: 4 },
      { sku: 'b', stock: 0 },
    ]);
    expect(around).toContainEqual([{ sku: 'a' }, { sku: 'b', stock: 0 }]);
    expect(neighbours([[5, 6]], new Map()).map((args) => args[0])).toContainEqual([0, 6]);
    // The last item too, so a lookup keyed on a later item meets other values there.
    expect(neighbours([[5, 6]], new Map()).map((args) => args[0])).toContainEqual([5, 7]);
    // From a copy: the suite's array and its items are untouched.
    expect(items).toEqual([
      { sku: 'a', stock: 3 },
      { sku: 'b', stock: 0 },
    ]);
  });
});

describe("generated inputs made from the change's values", () => {
  const values = { strings: ['https:'], numbers: [10], keys: ['strict'] };

  it("gives a string the literal in the other case, in it and beside it, and a number the other side of the change's constant", () => {
    const around = neighbours(['https://x.org/a', 3], new Map(), values);
    expect(around).toEqual(
      expect.arrayContaining([
        ['HTTPS://x.org/a', 3],
        ['//x.org/a', 3],
        ['https:', 3],
        ['HTTPS:', 3],
        ['https://x.org/a', 9],
        ['https://x.org/a', 11],
      ]),
    );
  });

  it('sets a key the change reads either way in an options object, and its string fields to the literal', () => {
    const around = neighbours([{ scheme: 'http:' }], new Map(), values);
    expect(around).toEqual(
      expect.arrayContaining([[{ scheme: 'http:', strict: true }], [{ scheme: 'http:', strict: false }], [{ scheme: 'HTTPS:' }]]),
    );
  });

  it('takes them in turn with the others, so a caller that keeps the first few keeps both kinds', () => {
    const first = neighbours(['abc'], new Map(), values).slice(1, 5);
    expect(first).toEqual([['abchttps:'], [''], ['https:abc'], ['bc']]);
    expect(neighbours(['abc'], new Map()).some((args) => args[0] === 'https:')).toBe(false);
  });
});

describe("generated inputs around a string's marks", () => {
  const around = (s: string) => neighbours([s], new Map()).map((args) => args[0]);

  it('puts a space before and after the last of each mark, doubles it and swaps it for another, among the first inputs', () => {
    // A tokenizer taught `,,` meets `, ,`; an escaper taught `&amp;` meets `<amp;`.
    expect(around('a,,b').slice(0, 56)).toEqual(expect.arrayContaining(['a, ,b', 'a,, b', 'a,,,b', 'a,<b', 'a,&b']));
    expect(around('x &amp; y').slice(0, 56)).toEqual(expect.arrayContaining(['x <amp; y', 'x &amp ; y', 'x &amp" y']));
  });

  it('varies no letter, digit or space as a mark', () => {
    expect(around('ab 12')).not.toContain('ab  12 ');
    expect(around('ab 12').filter((s) => typeof s === 'string' && s.includes('<'))).toEqual([]);
  });
});

describe("generated inputs around a string's numbers", () => {
  const around = (s: string) => neighbours([s], new Map()).map((args) => args[0]);

  it('gives each of its last digit runs one more, one less, a digit more and a digit fewer, among the first inputs', () => {
    // A version compared by its text (`alpha.10` before `alpha.9`) meets the numbers around the suite's.
    expect(around('1.0.0-alpha.10').slice(0, 40)).toEqual(
      expect.arrayContaining(['1.0.0-alpha.11', '1.0.0-alpha.9', '1.0.0-alpha.100', '1.0.0-alpha.1', '1.0.1-alpha.10']),
    );
    // Leading zeros keep the width; zero has no number below it.
    expect(around('v007')).toEqual(expect.arrayContaining(['v008', 'v006', 'v0070', 'v00']));
    expect(around('port 0')).not.toContain('port -1');
  });
});

describe('generated inputs beside a held argument', () => {
  it('never varies the held one, and gives the call no huge or infinite number', () => {
    const state = { depth: 0 };
    const around = neighbours([state, 3], new Map(), null, new Set([0]), true);
    expect(around.length).toBeGreaterThan(3);
    expect(around.every((args) => args[0] === state || args.length < 2)).toBe(true);
    expect(around.map((args) => args[1])).toEqual(expect.arrayContaining([4, 2, 0, -3]));
    expect(around.map((args) => args[1])).not.toContain(1e15);
    expect(around.map((args) => args[1])).not.toContain(Infinity);
    expect(neighbours([3], new Map()).map((args) => args[0])).toContain(1e15);
  });
});
