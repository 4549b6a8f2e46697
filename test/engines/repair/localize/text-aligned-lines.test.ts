import { describe, expect, it } from 'vitest';
import { alignedLines, textAlignment } from '../../../../src/engines/repair/localize/text-aligned-lines.ts';

// What a type-stripping printer makes of a TypeScript file: types and interfaces gone, tabs, double
// quotes, semicolons added.
const ORIGINAL = [
  'export interface Bounds {', // 1
  '  low: number;',
  '}',
  '',
  'export function label(value: number, { low }: Bounds): string {', // 5
  '  const floor: number = low',
  "  if (value < floor) return 'low'",
  '  else {',
  "    return 'fine'",
  '  }', // 10
  '}',
  '',
].join('\n');
const PRINTED = [
  '"use strict";async()=>{{', // 1
  'function label(value, { low }) {',
  '\tconst floor = low;',
  '\tif (value < floor) return "low";',
  '\telse {', // 5
  '\t\treturn "fine";',
  '\t}',
  '}',
  '}}',
].join('\n');

describe('textAlignment', () => {
  it('traces the lines a printer kept back to the file, and no rewritten or uninformative line', () => {
    const alignment = textAlignment(PRINTED, ORIGINAL);
    expect(alignedLines(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]), alignment)).toEqual(new Set([7, 9]));
    expect(alignment.get(4)).toBe(7);
    // The signature and the typed declaration were rewritten; `else {` and braces place nothing.
    for (const line of [2, 3, 5, 7, 8]) expect(alignment.has(line)).toBe(false);
  });

  it('traces a line whose redundant parentheses the printer dropped (oxc, for vitest 5)', () => {
    // ufo's hasProtocol, as the file has it and as vitest 5 ran it: the body was never traced.
    const original = [
      'export function hasProtocol (inputString: string, acceptProtocolRelative = false): boolean {',
      '  return PROTOCOL_REGEX.test(inputString) || (acceptProtocolRelative && PROTOCOL_RELATIVE_REGEX.test(inputString));',
      '}',
    ].join('\n');
    const printed = [
      'function hasProtocol(inputString, acceptProtocolRelative = false) {',
      '\treturn PROTOCOL_REGEX.test(inputString) || acceptProtocolRelative && PROTOCOL_RELATIVE_REGEX.test(inputString);',
      '};',
    ].join('\n');
    expect([...textAlignment(printed, original)]).toEqual([[2, 2]]);
  });

  it('keeps the order when a text repeats', () => {
    const alignment = textAlignment(
      ['return "again";', 'x = compute();', 'return "again";'].join('\n'),
      ["return 'again'", 'y()', 'x = compute()', "return 'again'"].join('\n'),
    );
    expect([...alignment]).toEqual([
      [1, 1],
      [2, 3],
      [3, 4],
    ]);
  });
});
