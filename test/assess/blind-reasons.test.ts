import { describe, expect, it } from 'vitest';
import { budgetSpentReason, UNREACHED_REASON } from '../../src/assess/blind-reasons.ts';

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
});
