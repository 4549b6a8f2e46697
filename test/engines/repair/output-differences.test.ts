import { describe, expect, it } from 'vitest';
import type { TestCaseResult } from '../../../src/core/test-report.ts';
import { outputDifferences } from '../../../src/engines/repair/output-differences.ts';

const failed = (stack: string): TestCaseResult => ({
  id: 't',
  name: 't',
  status: 'failed',
  message: stack.split('\n')[0] ?? '',
  stack,
});

// jest's report of commander's help lines, as printed (the received lines end in a blank).
const JEST_TRAILING_BLANK = [
  'expect(received).toBe(expected) // Object.is equality',
  '',
  '- Expected  - 2',
  '+ Received  + 2',
  '',
  '  Usage:  [options]',
  '-   -x -extra-long-option-switch  kjsahdkajshkahd kajhsd',
  '+   -x -extra-long-option-switch  kjsahdkajshkahd kajhsd ',
  '-                                 dkh aksd ka dkha kdh',
  '+                                 dkh aksd ka dkha kdh ',
  '    -h, --help                    output usage information',
  '',
  '  at Object.toBe (tests/helpwrap.test.js:22:37)',
].join('\n');

describe('outputDifferences', () => {
  it('tells a failure whose expected and actual lines differ only in whitespace', () => {
    expect(outputDifferences([failed(JEST_TRAILING_BLANK)])).toEqual(['whitespace']);
    expect(outputDifferences([failed("AssertionError: expected 'a  b' to equal 'a b'")])).toEqual(['whitespace']);
  });

  it("tells one whose values differ only in letter case, in pytest's, jest's and node's words", () => {
    expect(outputDifferences([failed("    assert 'as' == 'AS'\nE   AssertionError")])).toEqual(['case']);
    expect(
      outputDifferences([failed('expect(received).toBe(expected)\n\nExpected: "ButtonFace"\nReceived: "buttonface"')]),
    ).toEqual(['case']);
    expect(outputDifferences([failed("Expected values to be strictly equal:\n\n'Red' !== 'red'\n")])).toEqual(['case']);
  });

  it('tells nothing when any difference is of another kind, or when none is shown', () => {
    const mixed = [failed("assert 'as' == 'AS'"), failed('Expected: "a"\nReceived: "b"')];
    expect(outputDifferences(mixed)).toEqual([]);
    expect(outputDifferences([failed("assert 'as' == 'AS'"), failed(JEST_TRAILING_BLANK)])).toEqual([]);
    expect(outputDifferences([failed('TypeError: x is not a function')])).toEqual([]);
  });
});
