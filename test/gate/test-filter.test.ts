import { describe, expect, it } from 'vitest';
import { focusedTestCommand, testRunnerOf } from '../../src/gate/test-filter.ts';
import type { TestCaseResult } from '../../src/core/test-report.ts';

const failed = (id: string, name: string): TestCaseResult => ({ id, name, status: 'failed' });

describe('focusedTestCommand', () => {
  it('passes pytest node ids, shell-quoted', () => {
    expect(focusedTestCommand('python3 -m pytest -q', [failed('tests/t.py::test_a[1 2]', 'test_a[1 2]'), failed('tests/t.py::test_b', 'test_b')])).toBe(
      "python3 -m pytest -q 'tests/t.py::test_a[1 2]' tests/t.py::test_b",
    );
  });

  it('uses name patterns for node --test, vitest and jest, escaping regex characters', () => {
    expect(focusedTestCommand('node --test', [failed('s > adds (a+b)', 'adds (a+b)')])).toBe("node --test --test-name-pattern='adds \\(a\\+b\\)'");
    expect(focusedTestCommand('npx vitest run', [failed('f > x', 'x'), failed('f > y', 'y')])).toBe('npx vitest run -t \'x|y\'');
    expect(focusedTestCommand('jest --ci', [failed('a › it\'s', "it's")])).toBe("jest --ci -t 'it'\\''s'");
  });

  it('goes through npm scripts it can read, and gives up on anything else', () => {
    expect(focusedTestCommand('npm test', [failed('x', 'x')], { test: 'node --test' })).toBe('npm test -- --test-name-pattern=x');
    expect(focusedTestCommand('npm test', [failed('x', 'x')], { test: 'make check' })).toBeNull();
    expect(focusedTestCommand('make test', [failed('x', 'x')])).toBeNull();
    expect(focusedTestCommand('node --test && echo done', [failed('x', 'x')])).toBeNull();
    expect(focusedTestCommand('node --test', [])).toBeNull();
  });

  it('uses --grep for mocha, directly and through npm scripts', () => {
    expect(focusedTestCommand('npx mocha test/', [failed('clamp > keeps 5', 'keeps 5')])).toBe('npx mocha test/ --grep \'keeps 5\'');
    expect(focusedTestCommand('npm test', [failed('a b', 'b')], { test: 'mocha --check-leaks' })).toBe('npm test -- --grep b');
    expect(testRunnerOf('npm test', { test: 'mocha' })).toBe('mocha');
    expect(testRunnerOf('npm run unit', { unit: 'node --test' })).toBe('node-test');
    expect(testRunnerOf('make check')).toBeNull();
  });
});
