import { describe, expect, it } from 'vitest';
import { assessmentBudget } from '../../src/loop/assess-run.ts';

describe('the assessment budget', () => {
  it('takes a quarter of the run so far, at least 30 s, within the cap and what the run has left', () => {
    expect(assessmentBudget(60_000, 200, 120, 3_600_000)).toBe(30_000);
    expect(assessmentBudget(300_000, 200, 120, 3_600_000)).toBe(75_000);
    expect(assessmentBudget(900_000, 200, 120, 3_600_000)).toBe(120_000);
    expect(assessmentBudget(900_000, 200, 120, 50_000)).toBe(50_000);
  });

  it('gives a slow suite time for five runs of it, within the cap', () => {
    expect(assessmentBudget(120_000, 15_000, 120, 3_600_000)).toBe(75_000);
    expect(assessmentBudget(120_000, 40_000, 120, 3_600_000)).toBe(120_000);
  });

  it("gives five runs more when it will look for rivals itself (another engine's patch), within the cap", () => {
    expect(assessmentBudget(120_000, 8_000, 120, 3_600_000, true)).toBe(80_000);
    expect(assessmentBudget(120_000, 15_000, 120, 3_600_000, true)).toBe(120_000);
    expect(assessmentBudget(60_000, 200, 120, 3_600_000, true)).toBe(30_000);
  });
});
