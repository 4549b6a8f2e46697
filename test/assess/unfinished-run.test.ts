// When the probes saw no change, the assessment first asks whether its two suite runs could show one:
// the fixed tests must pass on the patched program and have run on the original, read as the judge
// reads the replay. jest's default reporter over several files names only failures (a test that
// passed on the patched program is then named nowhere in its output, and the run could not look).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import { parseTestOutput } from '../../src/gate/parse-test-output.ts';
import { unfinishedRun } from '../../src/assess/unfinished-run.ts';

const ORIGINAL_OUTPUT = readFileSync(new URL('../fixtures/outputs/jest-summary.txt', import.meta.url), 'utf8');
const files = ['a', 'b', ...Array.from({ length: 20 }, (_, i) => `c${i + 1}`)];
/** The same suite with both failing tests fixed: jest lists the files, and no test by name. */
const PATCHED_OUTPUT = `${files.map((f) => `PASS test/${f}.test.js`).join('\n')}\n\nTest Suites: 22 passed, 22 total\nTests:       24 passed, 24 total\nSnapshots:   0 total\nTime:        1.52 s\nRan all test suites.\n`;

function gate(output: string, passed: boolean): GateResult {
  const report = parseTestOutput(output);
  return passed
    ? { passed, report, output, durationMs: 1 }
    : { passed, reason: 'NON_ZERO_EXIT', exitCode: 1, report, output, durationMs: 1 };
}

const original = gate(ORIGINAL_OUTPUT, false);
const fixed = original.report.tests.filter((t) => t.status === 'failed');

describe('whether the suite runs can show the fix at work', () => {
  it('takes a fixed test a whole passing run does not name as passed, as the judge does', () => {
    expect(fixed.map((t) => t.id)).toEqual(['test/a.test.js › math › subtracts', 'test/b.test.js › multiplies']);
    const patched = gate(PATCHED_OUTPUT, true);
    expect(patched.report.tests).toEqual([]);
    expect(unfinishedRun(patched, original, fixed)).toBeNull();
  });

  it('names a fixed test that still failed on the patched program, or a version that did not run', () => {
    expect(unfinishedRun(original, original, fixed)).toMatch(
      /^the suite did not run to the end in the assessment's checkout: 2 tests the patch fixed \(test\/a\.test\.js › math › subtracts\)/,
    );
    expect(unfinishedRun(gate(PATCHED_OUTPUT, true), null, fixed)).toMatch(/2 tests the patch fixed/);
    // A run cut short: its output ends before jest's summary, so nothing says the fixed tests passed.
    expect(unfinishedRun(gate('PASS test/c1.test.js\n', false), original, fixed)).toMatch(/did not pass on the patched program/);
  });

  it("names the probed run's first error, so a run the instrumented files broke says what a look needs", () => {
    const broken = gate(
      "not ok 1 - test/a.test.js\n# /tmp/x/index.js:1\n# 'use strict' var __fixloop_h;\n# SyntaxError: Unexpected token 'var'\n#     at wrapSafe (node:internal)\n",
      false,
    );
    expect(unfinishedRun(broken, original, fixed)).toMatch(
      /the probed run's first error: SyntaxError: Unexpected token 'var' \(a look needs the instrumented files to load/,
    );
    const typed = gate(
      "FAIL src/a.spec.ts\n  src/a.ts:1:54397 - error TS6133: 'i' is declared but its value is never read.\n",
      false,
    );
    expect(unfinishedRun(typed, original, fixed)).toMatch(
      /first error: error TS6133: 'i' is declared but its value is never read\./,
    );
  });
});
