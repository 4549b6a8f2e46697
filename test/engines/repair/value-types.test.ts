import { describe, expect, it } from 'vitest';
import type { TestCaseResult } from '../../../src/core/test-report.ts';
import { valueTypesInTests } from '../../../src/engines/repair/value-types.ts';

const failing = (...names: string[]): TestCaseResult[] => names.map((name) => ({ id: name, name, status: 'failed' }));

describe('valueTypesInTests', () => {
  it('reads the types of the values a table-driven test writes into its name', () => {
    expect(valueTypesInTests(failing('withQuery > /?foo=1 with {"foo":true,"bar":false}'))).toEqual(['boolean']);
    expect(valueTypesInTests(failing('parses null', 'keeps undefined keys'))).toEqual(['object', 'undefined']);
  });

  it('reads nothing from words that only contain them, nor from numbers and strings', () => {
    expect(valueTypesInTests(failing('nullable fields', 'untrue claims', 'adds 1 and "a"'))).toEqual([]);
  });
});
