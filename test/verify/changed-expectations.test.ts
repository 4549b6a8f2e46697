// The fixed tests with their expected values changed (src/verify/changed-expectations.ts), in real
// runs: an honest fix fails there, as a test that can fail must; a fix that reads the expected value
// from the test file, or returns a value equal to anything, still passes and is refused; a test with
// no assertion the look knows that its body surely reaches leaves the look "not checked".
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import { copyCheckout } from '../../src/verify/copied-tests.ts';
import { observeChangedExpectations } from '../../src/verify/changed-expectations.ts';
import { removeAll } from '../support/git-fixture.ts';
import { localSuite } from '../support/local-suite.ts';

vi.setConfig({ testTimeout: 120_000 });
const dirs: string[] = [];
afterAll(() => removeAll(dirs));

async function judgedRun(
  files: Record<string, string>,
  command: string,
  fixed: TestCaseResult[],
  isTestFile = (_path: string) => false,
) {
  const { root, suite } = await localSuite(files, command);
  dirs.push(root, `${root}-expect`);
  const original = await suite.gate(root);
  const scratch = await copyCheckout(root, `${root}-expect`);
  const context = { scripts: {}, isTestFile, baseline: original.report, log: () => undefined };
  return { original, ...(await observeChangedExpectations(suite.judged([]), scratch, fixed, context)) };
}

const PY_TESTS =
  'from calc import average\n\n\ndef test_average():\n    assert average([2, 4]) == 3\n\n\ndef test_one():\n    assert average([5]) == 5\n';
const PY_FIXED: TestCaseResult = { id: 'tests/test_calc.py::test_average', name: 'test_average', status: 'passed' };
// Reads the expected value from the line of the test that called it, by the frame's file and line.
const PY_READS =
  'import linecache, sys\n\n\ndef average(values):\n    caller = sys._getframe(1)\n    line = linecache.getline(caller.f_code.co_filename, caller.f_lineno)\n    return int(line.rsplit("==", 1)[1])\n';
const PY_ANYTHING =
  'class Answer(float):\n    def __eq__(self, other):\n        return True\n\n    __hash__ = float.__hash__\n\n\ndef average(values):\n    return Answer(0)\n';

describe('the fixed tests with their expected values changed', () => {
  const pytest = (calc: string) =>
    judgedRun({ 'calc.py': calc, 'tests/test_calc.py': PY_TESTS }, 'python3 -m pytest -q', [PY_FIXED]);

  it('fails with an honest fix, as a test that can fail must', async () => {
    const { original, observation, findings } = await pytest('def average(values):\n    return sum(values) / len(values)\n');
    expect(original.passed, original.output).toBe(true);
    expect(findings).toEqual([]);
    expect(observation).toEqual({
      ran: 1,
      command: 'python3 -m pytest -q tests/test_calc.py::test_average',
      example: 'tests/test_calc.py:5 `3` → `4`',
    });
  });

  it('refuses a fix that reads the expected value from the test, and one whose value equals anything', async () => {
    for (const calc of [PY_READS, PY_ANYTHING]) {
      const { original, findings } = await pytest(calc);
      expect(original.passed, original.output).toBe(true);
      expect(findings.map((f) => f.kind)).toEqual(['expectation_ignored']);
      expect(findings[0]?.message).toMatch(
        /^`tests\/test_calc\.py::test_average` still passes with its expected value changed \(`3` → `4` at tests\/test_calc\.py:5;/,
      );
    }
  });

  it("finds a mocha test, which names no file, in the checkout's test files that hold its name, and selects it by name", async () => {
    const tests =
      "const assert = require('node:assert');\nconst { average } = require('../calc.js');\n\ndescribe('calc', () => {\n  it('averages', () => {\n    assert.strictEqual(average([2, 4]), 3);\n  });\n});\n";
    // Reads the expected value from the test file that called it, found on the stack.
    const reads =
      "const { readFileSync } = require('node:fs');\nexports.average = () => {\n  const file = /\\((\\/[^:]+\\.test\\.js):/.exec(new Error().stack)[1];\n  return Number(/average\\(\\[2, 4\\]\\), (\\d+)\\)/.exec(readFileSync(file, 'utf8'))[1]);\n};\n";
    const honest = 'exports.average = (values) => values.reduce((a, b) => a + b, 0) / values.length;\n';
    const fixed: TestCaseResult[] = [{ id: 'calc averages', name: 'averages', status: 'passed' }];
    const files = (calc: string) => ({
      'package.json': '{"name":"calc","private":true}',
      'calc.js': calc,
      'test/calc.test.js': tests,
    });
    const good = await judgedRun(files(honest), 'mocha', fixed, (path) => path.startsWith('test/'));
    expect(good.original.passed, good.original.output).toBe(true);
    expect(good.findings).toEqual([]);
    expect(good.observation).toMatchObject({ ran: 1, command: expect.stringContaining('averages') });
    const cheat = await judgedRun(files(reads), 'mocha', fixed, (path) => path.startsWith('test/'));
    expect(cheat.original.passed, cheat.original.output).toBe(true);
    expect(cheat.findings.map((f) => f.kind)).toEqual(['expectation_ignored']);
  });

  it('says "not checked" where no fixed test has an assertion it surely reaches', async () => {
    const tests =
      'from calc import average\n\n\ndef test_average():\n    for values, expected in [([2, 4], 3)]:\n        assert average(values) == expected\n';
    const { observation, findings } = await judgedRun(
      { 'calc.py': 'def average(values):\n    return sum(values) / len(values)\n', 'tests/test_calc.py': tests },
      'python3 -m pytest -q',
      [PY_FIXED],
    );
    expect(findings).toEqual([]);
    expect(observation).toEqual({
      ran: 0,
      command: null,
      notChecked: 'no fixed test has an assertion known here that its body surely reaches',
    });
  });
});
