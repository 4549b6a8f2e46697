// Parsers on outputs recorded from the real runners (node --test spec and TAP reporters, vitest,
// pytest -q / -v / --junitxml) and, for jest and mocha, which this project does not install, on
// outputs written after their documented default reporters.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/gate/parse-test-output.ts';
import { parseJunit } from '../../src/formats/junit.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/${name}`, import.meta.url), 'utf8');
const statuses = (name: string) => {
  const report = parseTestOutput(fixture(name));
  return { report, byId: Object.fromEntries(report.tests.map((t) => [t.id, t.status])) };
};

describe('parseTestOutput', () => {
  it("reads node's spec reporter, with nested suites, skips and the failures' stacks", () => {
    const { report, byId } = statuses('node-spec.txt');
    expect(report).toMatchObject({ format: 'node-test', parsed: true, passed: 2, failed: 2, skipped: 1, total: 5 });
    expect(byId).toEqual({
      'math > adds': 'failed',
      'math > subtracts fine': 'passed',
      'math > nested > throws': 'failed',
      'math > nested > skipped one': 'skipped',
      'top level ok': 'passed',
    });
    const throws = report.tests.find((t) => t.id === 'math > nested > throws');
    expect(throws).toMatchObject({ file: 'test/m.test.js', message: 'TypeError: bad thing' });
    expect(throws?.stack).toContain('at boom (file:///tmp/samp/n/src/m.js:2:32)');
  });

  it("reads node's TAP reporter with subtests", () => {
    const { report, byId } = statuses('node-tap.txt');
    expect(report.format).toBe('tap');
    expect(byId['math > adds']).toBe('failed');
    expect(byId['math > nested > skipped one']).toBe('skipped');
    expect(byId['top level ok']).toBe('passed');
    expect(report.failed).toBe(2);
  });

  it('reads vitest: the tree of a failing file, the FAIL blocks and the summary', () => {
    const { report, byId } = statuses('vitest.txt');
    expect(report).toMatchObject({ format: 'vitest', passed: 2, failed: 2, skipped: 1, total: 5 });
    expect(byId['src/m.test.js > math > nested > throws']).toBe('failed');
    const throws = report.tests.find((t) => t.id === 'src/m.test.js > math > nested > throws');
    expect(throws?.message).toBe('TypeError: bad thing');
    expect(throws?.stack).toContain('❯ boom src/m.js:2:32');
  });

  it('reads vitest 4, whose tree shows a failed test without its suites: one test, not two', () => {
    const { report, byId } = statuses('vitest4-collapsed.txt');
    expect(report).toMatchObject({ format: 'vitest', passed: 4, failed: 1, total: 5 });
    expect(byId).toEqual({ 'test/merge.test.ts > merge > merges functions': 'failed' });
    expect(report.tests[0]?.message).toBe('AssertionError: expected 1 to deeply equal 2');
  });

  it('reads vitest 5, whose tree marks a suite that passed as it marks a test: a level, not a test', () => {
    // Recorded with vitest 5.1.1 (test/fixtures/runners/vitest/guard/vitest-5.1.1-default.json).
    const { report, byId } = statuses('vitest5-passing-suite.txt');
    expect(report).toMatchObject({ format: 'vitest', passed: 3, failed: 1, skipped: 1, total: 5 });
    expect(byId).toEqual({
      'test/math.test.js > math > adds': 'passed',
      'test/math.test.js > math > multiplies': 'failed',
      'test/math.test.js > math > rounding > rounds down': 'passed',
      'test/math.test.js > math > rounding > rounds half to even': 'skipped',
    });
  });

  it('reads a test vitest retried by its own name, without the retries it notes after its time', () => {
    const output = fixture('vitest5-passing-suite.txt').replace('✓ adds 1ms', '✓ adds 94ms (retry x1)');
    const adds = parseTestOutput(output).tests.find((t) => t.name === 'adds');
    expect(adds).toMatchObject({ id: 'test/math.test.js > math > adds', status: 'passed', durationMs: 94 });
  });

  it("reads vitest 3, whose tree prints each test with its suites and no suite line: the name is the test's own", () => {
    // Recorded from unjs/ufo's suite (bench/real ufo-05) under vitest 3.2.4.
    const { report } = statuses('vitest3-flat.txt');
    expect(report).toMatchObject({ format: 'vitest', passed: 202, failed: 1, total: 203 });
    const failed = report.tests.filter((t) => t.status === 'failed');
    expect(failed).toMatchObject([
      {
        id: 'test/url.test.ts > parseURL > https://domain.test:3000#owo',
        name: 'https://domain.test:3000#owo',
        file: 'test/url.test.ts',
      },
    ]);
    expect(report.tests.find((t) => t.id === 'test/url.test.ts > parseURL > //test')).toMatchObject({
      name: '//test',
      status: 'passed',
    });
  });

  it('reads pytest -q (failures and counts) and -v (every test)', () => {
    const quiet = statuses('pytest-q.txt');
    expect(quiet.report).toMatchObject({ format: 'pytest', passed: 2, failed: 3, skipped: 1, total: 6 });
    expect(quiet.byId).toEqual({
      'tests/test_calc.py::test_add': 'failed',
      'tests/test_calc.py::TestThings::test_boom': 'failed',
      'tests/test_calc.py::test_param[2]': 'failed',
    });
    const boom = quiet.report.tests.find((t) => t.name === 'test_boom');
    expect(boom?.message).toBe('ValueError: bad thing');
    expect(boom?.stack).toContain('calc.py:6: ValueError');
    const verbose = statuses('pytest-v.txt');
    expect(Object.keys(verbose.byId)).toHaveLength(6);
    expect(verbose.byId['tests/test_calc.py::TestThings::test_skipped']).toBe('skipped');
  });

  it("reads jest's default reporter", () => {
    const { report, byId } = statuses('jest.txt');
    expect(report).toMatchObject({ format: 'jest', passed: 3, failed: 1, skipped: 1, total: 5 });
    expect(byId['src/sum.test.js › sum › adds negative numbers']).toBe('failed');
    const failed = report.tests.find((t) => t.status === 'failed');
    expect(failed?.message).toContain('expect(received).toBe(expected)');
    expect(failed?.stack).toContain('at Object.toBe (src/sum.test.js:5:25)');
  });

  it('reads jest\'s failures once when it repeats them under "Summary of all failing tests", each under its own file', () => {
    // Recorded from jest 29.7 with 22 test files (the summary is printed past 20).
    const { report, byId } = statuses('jest-summary.txt');
    expect(report).toMatchObject({ format: 'jest', passed: 22, failed: 2, total: 24 });
    expect(report.tests.filter((t) => t.status === 'failed').map((t) => t.id)).toEqual([
      'test/a.test.js › math › subtracts',
      'test/b.test.js › multiplies',
    ]);
    expect(byId['test/b.test.js › multiplies']).toBe('failed');
    expect(report.tests.find((t) => t.id === 'test/b.test.js › multiplies')?.stack).toContain(
      'at Object.toBe (test/b.test.js:1:42)',
    );
  });

  it("reads mocha's spec reporter", () => {
    const { report, byId } = statuses('mocha.txt');
    expect(report).toMatchObject({ format: 'mocha', passed: 1, failed: 1, skipped: 1 });
    expect(byId['Array > #indexOf() > should return the index when present']).toBe('failed');
    const failed = report.tests.find((t) => t.status === 'failed');
    expect(failed?.message).toMatch(/^AssertionError \[ERR_ASSERTION\]: expected 0 to equal 1/);
    expect(failed?.stack).toContain('test/array.test.js:9:14');
  });

  it("names mocha's tests the same whatever npm's banner says above them (`npm test -- --grep …`)", () => {
    const withBanner = (command: string) => parseTestOutput(`\n> load@1.0.0 test\n> ${command}\n\n${fixture('mocha.txt')}`);
    const ids = (command: string) => withBanner(command).tests.map((t) => t.id);
    expect(ids('mocha')).toEqual(statuses('mocha.txt').report.tests.map((t) => t.id));
    expect(ids("mocha --grep '^Array'")).toEqual(ids('mocha'));
  });

  it('falls back to a closing summary line, and says when nothing parses', () => {
    expect(parseTestOutput('running...\n12 passed, 1 failed\n')).toMatchObject({
      format: 'unknown',
      parsed: true,
      passed: 12,
      failed: 1,
      tests: [],
    });
    expect(parseTestOutput('Segmentation fault\n')).toMatchObject({ parsed: false, total: 0 });
  });

  it('ignores ANSI colour codes', () => {
    const coloured = fixture('pytest-q.txt').replace(/FAILED/g, '\u001b[31mFAILED\u001b[0m');
    expect(parseTestOutput(coloured).failed).toBe(3);
  });
});

describe('parseJunit', () => {
  it('reads a JUnit XML report written by pytest --junitxml', () => {
    const report = parseJunit(fixture('pytest-junit.xml'));
    expect(report).toMatchObject({ format: 'junit', passed: 2, failed: 3, skipped: 1, total: 6 });
    const add = report?.tests.find((t) => t.name === 'test_add');
    expect(add).toMatchObject({ id: 'tests.test_calc > test_add', status: 'failed' });
    expect(add?.message).toContain('assert -1 == 5');
    expect(add?.stack).toContain('tests/test_calc.py:6: AssertionError');
  });

  it('returns null for text that is not JUnit XML', () => {
    expect(parseJunit('<html></html>')).toBeNull();
  });
});
