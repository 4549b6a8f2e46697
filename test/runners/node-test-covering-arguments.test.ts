// The words of a `node --test` command that the failing tests' named files make redundant.
import { describe, expect, it } from 'vitest';
import { withoutCoveringArguments } from '../../src/runners/node-test/covering-arguments.ts';
import type { TestCaseResult } from '../../src/core/test-report.ts';

const off: TestCaseResult[] = [{ id: 'off > removes', name: 'removes', file: 'test/off.test.js', status: 'failed' }];

describe('withoutCoveringArguments', () => {
  it('drops the file, a folder it is in, or a glob that matches it, quoted or not', () => {
    expect(withoutCoveringArguments('node --test "test/**/*.test.js"', off, true)).toBe('node --test');
    expect(withoutCoveringArguments("node --test 'test/*.test.js' ./test/ test/off.test.js .", off, true)).toBe('node --test');
  });

  it('keeps what covers none of them, and a word an option may take as its value', () => {
    expect(withoutCoveringArguments('node --test "lib/**/*.test.js" docs/', off, true)).toBe(
      'node --test "lib/**/*.test.js" docs/',
    );
    expect(withoutCoveringArguments('node --test --test-reporter test/ test/', off, true)).toBe(
      'node --test --test-reporter test/',
    );
    expect(withoutCoveringArguments('node --test --test-only test/', off, true)).toBe('node --test --test-only');
  });

  it('keeps every word when the files are not named, or a failing test has no file', () => {
    expect(withoutCoveringArguments('node --test test/', off, false)).toBe('node --test test/');
    const unnamed: TestCaseResult[] = [...off, { id: 'x', name: 'x', status: 'failed' }];
    expect(withoutCoveringArguments('node --test test/', unnamed, true)).toBe('node --test test/');
  });
});
