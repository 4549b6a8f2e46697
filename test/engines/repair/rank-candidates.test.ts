import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../src/engines/repair/candidate.ts';
import { rankCandidates, sizeFactor } from '../../../src/engines/repair/rank-candidates.ts';

const source = 'if (a < b) return x;\n';
const candidate = (template: Candidate['template'], line: number, start: number, end: number, text: string): Candidate => ({
  file: 'a.js',
  edits: [{ start, end, text }],
  template,
  line,
  description: template,
  size: Math.max(end - start, text.length),
});

describe('rankCandidates', () => {
  it('orders by suspiciousness × prior × size, removes duplicates and caps the list', () => {
    const suspicious = [{ file: 'a.js', line: 1, score: 0.9, signals: ['stack'] }];
    const list = [
      candidate('swap-operands', 1, 4, 9, 'b < a'),
      candidate('relational-operator', 1, 6, 7, '<='),
      candidate('relational-operator', 1, 6, 7, '<='),
      candidate('negate-condition', 1, 4, 9, '!(a < b)'),
    ];
    const ranked = rankCandidates(list, suspicious, new Map([['a.js', source]]), 10);
    expect(ranked.map((c) => c.template)).toEqual(['relational-operator', 'negate-condition', 'swap-operands']);
    expect(ranked[0]?.result).toBe('if (a <= b) return x;\n');
    expect(rankCandidates(list, suspicious, new Map([['a.js', source]]), 1)).toHaveLength(1);
  });

  it('tells duplicates by their smallest edits, and applies and parse-checks only what makes the cut', () => {
    const suspicious = [{ file: 'a.js', line: 1, score: 0.9, signals: ['stack'] }];
    const list = [
      candidate('relational-operator', 1, 6, 7, '<='),
      // The same change, written as a wider replacement: one candidate.
      candidate('relational-operator', 1, 4, 9, 'a <= b'),
      candidate('negate-condition', 1, 4, 9, '!(a < b)'),
      candidate('swap-operands', 1, 4, 9, 'b < a'),
      candidate('relational-operator', 1, 6, 7, '<'),
    ];
    const checked: string[] = [];
    const parses = (_file: string, text: string) => (checked.push(text), !text.includes('!('));
    const ranked = rankCandidates(list, suspicious, new Map([['a.js', source]]), 2, parses);
    // The negation does not "parse" here: the next candidate takes its place; the no-op is no candidate.
    expect(ranked.map((c) => c.template)).toEqual(['relational-operator', 'swap-operands']);
    expect(checked).toHaveLength(3);
  });

  it('favours smaller patches', () => {
    expect(sizeFactor(1)).toBeGreaterThan(sizeFactor(40));
  });

  it('does not charge an option the failing tests pass for its length', () => {
    const suspicious = [{ file: 'a.js', line: 1, score: 0.9, signals: ['ochiai'] }];
    const list = [
      candidate('logical-operator', 1, 4, 9, 'a || b'),
      candidate('honor-option', 1, 4, 9, '!opts.nonegate && a < b'),
    ];
    // logical-operator: 0.72 × sizeFactor(6); honor-option: its prior alone, 1.0, not × sizeFactor(23).
    const ranked = rankCandidates(list, suspicious, new Map([['a.js', source]]), 10);
    expect(ranked.map((c) => c.template)).toEqual(['honor-option', 'logical-operator']);
    expect(ranked[0]?.score).toBeCloseTo(0.9);
  });

  it('does not charge a candidate whose inserted text the failing tests write for its length', () => {
    const suspicious = [{ file: 'a.js', line: 1, score: 0.9, signals: ['ochiai'] }];
    const invented = candidate('widen-type-check', 1, 4, 9, "(a < b || typeof a === 'string')");
    const shown = { ...candidate('widen-type-check', 1, 4, 9, "(a < b || typeof a === 'boolean')"), fromTests: true };
    const ranked = rankCandidates([invented, shown], suspicious, new Map([['a.js', source]]), 10);
    expect(ranked.map((c) => c.fromTests ?? false)).toEqual([true, false]);
    expect(ranked[0]?.score).toBeCloseTo(0.9 * 0.5);
    expect(ranked[1]?.score).toBeLessThan(0.9 * 0.5 * 0.5);
  });
});
