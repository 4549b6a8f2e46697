// The canonical text of values in the probe's records: the same text for equal values in two
// processes, nothing that depends on the process (addresses, identities).
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const { canon, argsText, thrownText } = createRequire(import.meta.url)('../../../src/assess/js/probe-canon.cjs') as {
  canon: (value: unknown) => string;
  argsText: (args: unknown[]) => string;
  thrownText: (error: unknown) => string;
};

class Point {
  x: number;
  y: number;
  constructor(x: number, y: number) {
    this.x = x;
    this.y = y;
  }
}

describe('canonical text', () => {
  it('writes primitives as code', () => {
    expect(argsText(['ab\\c', '\n', "it's", -0, NaN, Infinity, 1n, undefined, null, true, Symbol('s')])).toBe(
      "'ab\\\\c', '\\n', 'it\\'s', -0, NaN, Infinity, 1n, undefined, null, true, Symbol(s)",
    );
  });

  it('writes objects by kind, in insertion order', () => {
    expect(canon({ b: 1, a: [1, 'x'], 'k-y': {} })).toBe("{ b: 1, a: [1, 'x'], 'k-y': {} }");
    expect(canon(new Date('2020-01-01T00:00:00Z'))).toBe('Date(2020-01-01T00:00:00.000Z)');
    expect(canon(new Date('nope'))).toBe('Date(Invalid)');
    expect(canon(/x/g)).toBe('/x/g');
    expect(canon(new Map([['k', 1]]))).toBe("Map { 'k' => 1 }");
    expect(canon(new Set([1]))).toBe('Set { 1 }');
    expect(canon(function named() {})).toBe('[Function named]');
    expect(canon(new Point(1, 2))).toBe('Point { x: 1, y: 2 }');
    expect(canon(new TypeError('bad'))).toBe('TypeError: bad');
    expect(canon(Promise.resolve(1))).toBe('Promise');
    expect(canon(Buffer.from([1, 2]))).toBe('Buffer [1, 2]');
    expect(canon(new Uint8Array([1, 2]))).toBe('Uint8Array [1, 2]');
  });

  it('marks cycles and depth, and shortens long text with a hash of the whole', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle['self'] = cycle;
    expect(canon(cycle)).toBe('{ a: 1, self: [Circular] }');
    expect(canon([[[[[[1]]]]]])).toBe('[[[[[[…]]]]]]');
    const long = canon('x'.repeat(1000));
    // Its start and its end, then a hash of the whole.
    expect(long).toMatch(/^'x{299}…x{79}'…#[0-9a-f]{8}$/);
    expect(canon(`${'x'.repeat(500)}y${'x'.repeat(499)}`)).not.toBe(long);
    // A difference near the end is shown, not only a different hash.
    expect(canon(`${'x'.repeat(999)}y`)).toMatch(/^'x{299}…x{78}y'…#[0-9a-f]{8}$/);
  });

  it('spells out at most 5,000 values of one value, the same ones each time', () => {
    // 200 × 200 values: a whole application reached from one receiver.
    const big = Array.from({ length: 200 }, (_, i) =>
      Object.fromEntries(Array.from({ length: 200 }, (_, j) => [`k${j}`, i * 1000 + j])),
    );
    const first = canon(big);
    expect(first).toBe(canon(structuredClone(big)));
    const changedFar = structuredClone(big);
    changedFar[199]!['k199'] = -1;
    // Past the budget a change is not seen: the budget is what keeps a probed method's calls cheap.
    expect(canon(changedFar)).toBe(first);
    const changedNear = structuredClone(big);
    changedNear[0]!['k1'] = -1;
    expect(canon(changedNear)).not.toBe(first);
    // Each property gets its share: a flag after a large list is still spelled out.
    expect(canon({ tokens: big, negated: true })).not.toBe(canon({ tokens: big, negated: false }));
  });

  it('writes what was thrown as `Name: message`, or as a value', () => {
    expect(thrownText(new RangeError('boom'))).toBe('RangeError: boom');
    expect(thrownText('plain')).toBe("'plain'");
  });
});
