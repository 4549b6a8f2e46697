import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import { budgetSpentReason, UNREACHED_REASON, unreachedReason } from '../../src/assess/blind-reasons.ts';
import { parseTestOutput } from '../../src/gate/parse-test-output.ts';

describe('what an assessment that could not look would have needed', () => {
  it('says how long the suite took against the budget, and what lets it look', () => {
    expect(budgetSpentReason(41_200, 60_000)).toBe(
      "the time budget ran out before the suite ran on both versions: the patched program's probed suite run took 41.2 s of the 60.0 s it had, and the original needs as long (a larger `assessment.timeBudget`, or a faster suite, lets it look)",
    );
    expect(budgetSpentReason(null, 60_000)).toContain(
      "the patched program's probed suite run did not finish within the 60.0 s it had",
    );
  });

  it('says what a look at code the suite never reached would need', () => {
    expect(UNREACHED_REASON).toMatch(/^the suite never called the changed functions, or they could not be probed: a look needs /);
  });

  it('says, when nothing was recorded because a probed run did not finish, that and its first error', () => {
    const run = (output: string, passed: boolean): GateResult => {
      const report = parseTestOutput(output);
      return passed
        ? { passed, report, output, durationMs: 1 }
        : { passed, reason: 'NON_ZERO_EXIT', exitCode: 1, report, output, durationMs: 1 };
    };
    const whole = run('TAP version 13\nok 1 - off removes the root\n1..1\n# pass 1\n# fail 0\n', true);
    const fixed = whole.report.tests.map((t) => ({ ...t, status: 'failed' as const }));
    expect(fixed.map((t) => t.id)).toEqual(['off removes the root']);
    const broken = run("not ok 1 - test/off.test.js\n# SyntaxError: Unexpected token 'var'\n# pass 0\n# fail 1\n", false);
    expect(unreachedReason(whole, whole, fixed)).toBe(UNREACHED_REASON);
    expect(unreachedReason(broken, broken, fixed)).toMatch(
      /^the suite did not run to the end in the assessment's checkout: .*first error: SyntaxError: Unexpected token 'var'/,
    );
  });
});
