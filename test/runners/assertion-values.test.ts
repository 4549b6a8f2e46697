// Expected and actual values read from each runner's own assertion output, recorded once with the real
// runner on a tiny project whose tests fail on numbers, strings, the runner's matchers and node's
// assert (test/fixtures/runners/<runner>/values.txt, see record-values.sh there), and on the failing
// run of the conformance recordings (fail.txt). A test that threw without comparing gets no values.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/gate/parse-test-output.ts';
import { chaiValues, nodeAssertValues } from '../../src/runners/assertion-values.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/runners');

/** name → [expected, actual] of each failed test, as the gate parses the recorded output. */
function valuesOf(runner: string, file: string): Record<string, [string | undefined, string | undefined]> {
  const report = parseTestOutput(readFileSync(join(FIXTURES, runner, file), 'utf8'));
  expect(report.format).toBe(runner);
  return Object.fromEntries(report.tests.filter((t) => t.status === 'failed').map((t) => [t.name, [t.expected, t.actual]]));
}

const NONE: [undefined, undefined] = [undefined, undefined];

describe('expected and actual values, per runner', () => {
  it('node --test: the error properties it prints, strings quoted, an object on one line', () => {
    expect(valuesOf('node-test', 'values.txt')).toEqual({
      'adds numbers': ['2', '3'],
      greets: ["'hello bob'", "'hello bob!'"],
      'deep equal': ['{ sum: 2 }', '{ sum: 3 }'],
      throws: NONE,
    });
    expect(valuesOf('node-test', 'fail.txt')).toEqual({ 'adds numbers': ['3', '2'] });
  });

  it("jest: Expected/Received of its matchers, and node's assert under jest", () => {
    expect(valuesOf('jest', 'values.txt')).toEqual({
      'adds numbers': ['2', '3'],
      greets: ['"hello bob"', '"hello bob!"'],
      'node assert': ['2', '3'],
      throws: NONE,
    });
    expect(valuesOf('jest', 'fail.txt')).toEqual({ 'adds numbers': ['3', '2'] });
  });

  it("vitest: chai's words for toBe, Expected/Received for toEqual, node's assert", () => {
    expect(valuesOf('vitest', 'values.txt')).toEqual({
      'adds numbers': ['2', '3'],
      greets: ['"hello bob"', '"hello bob!"'],
      'node assert': ['2', '3'],
      throws: NONE,
    });
    expect(valuesOf('vitest', 'fail.txt')).toEqual({ 'adds numbers': ['3', '2'] });
  });

  it("mocha: node's assert and chai's expect", () => {
    expect(valuesOf('mocha', 'values.txt')).toEqual({
      'adds numbers': ['2', '3'],
      greets: ["'hello bob'", "'hello bob!'"],
      'chai numbers': ['2', '3'],
      throws: NONE,
    });
    expect(valuesOf('mocha', 'fail.txt')).toEqual({ 'adds numbers': ['3', '2'] });
  });

  it("pytest: the rewritten assert's two sides, the left one what the code gave", () => {
    expect(valuesOf('pytest', 'values.txt')).toEqual({
      test_adds_numbers: ['2', '3'],
      test_greets: ["'hello bob'", "'hello bob!'"],
      test_raises: NONE,
    });
    // A constant expression is shown as written: what pytest printed, no more.
    expect(valuesOf('pytest', 'fail.txt')).toEqual({ test_adds_numbers: ['3', '(1 + 1)'] });
  });
});

describe('shapes that name no pair of values', () => {
  it("node's assert: a diff of many lines gives none, a one-line diff gives both", () => {
    const many = 'Expected values to be strictly deep-equal:\n+ actual - expected\n\n  {\n+   a: 1,\n-   a: 2,\n+   b: 1\n  }';
    expect(nodeAssertValues(many)).toBeNull();
    expect(nodeAssertValues("Expected values to be strictly equal:\n+ actual - expected\n\n+ 'ab'\n- 'ac'")).toEqual({
      expected: "'ac'",
      actual: "'ab'",
    });
    expect(nodeAssertValues('some other error: 1 !== 2')).toBeNull();
  });

  it('chai: a comparison with no expected value, or a negated one, gives none', () => {
    expect(chaiValues('AssertionError: expected 3 to be above 5')).toBeNull();
    expect(chaiValues("AssertionError: expected 3 to be a 'string'")).toBeNull();
    expect(chaiValues('AssertionError: expected 3 to not equal 3')).toBeNull();
    expect(chaiValues('AssertionError: expected false to be true')).toEqual({ expected: 'true', actual: 'false' });
  });

  it('cuts a long value to one line', () => {
    const long = 'x'.repeat(500);
    const values = chaiValues(`AssertionError: expected '${long}' to equal 'y'`);
    expect(values?.actual.length).toBe(200);
    expect(values?.actual.endsWith('…')).toBe(true);
  });
});
