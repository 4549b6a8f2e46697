import { describe, expect, it } from 'vitest';
import { assessmentBudget } from '../../src/loop/assess-run.ts';

describe('the assessment budget', () => {
  it('takes a quarter of the run so far, at least 60 s and six baseline runs more, within the cap and what the run has left', () => {
    expect(assessmentBudget(60_000, 200, 120, 3_600_000)).toBe(61_200);
    expect(assessmentBudget(300_000, 200, 120, 3_600_000)).toBe(75_000);
    expect(assessmentBudget(200_000, 200, 120, 3_600_000)).toBe(61_200);
    expect(assessmentBudget(900_000, 200, 120, 3_600_000)).toBe(120_000);
    expect(assessmentBudget(900_000, 200, 120, 50_000)).toBe(50_000);
  });

  it('gives a slow suite time for five runs of it within the cap, and never less than its floor', () => {
    expect(assessmentBudget(120_000, 8_000, 120, 3_600_000)).toBe(108_000);
    expect(assessmentBudget(120_000, 15_000, 120, 3_600_000)).toBe(120_000);
  });

  it('lets a suite that runs in seconds run on both versions and twice on the original: 60 s + 6 of its runs, within the cap and the run', () => {
    // A 1-second suite in a quick run: 30 s used to be all, setup and the probes' own cost included;
    // then 30 s and six runs, which left a second look at the entry points (five probed runs) no time.
    expect(assessmentBudget(60_000, 1_000, 120, 3_600_000)).toBe(66_000);
    // A repository that lowers the cap is obeyed (it may lower a budget, never raise it).
    expect(assessmentBudget(60_000, 1_000, 20, 3_600_000)).toBe(20_000);
    expect(assessmentBudget(120_000, 40_000, 120, 3_600_000)).toBe(120_000);
    expect(assessmentBudget(120_000, 40_000, 600, 3_600_000)).toBe(300_000);
    expect(assessmentBudget(120_000, 40_000, 600, 100_000)).toBe(100_000);
  });

  it("gives five runs more when it will look for rivals itself (another engine's patch), within the cap", () => {
    expect(assessmentBudget(120_000, 8_000, 120, 3_600_000, true)).toBe(108_000);
    expect(assessmentBudget(120_000, 4_000, 120, 3_600_000, true)).toBe(84_000);
    expect(assessmentBudget(120_000, 15_000, 120, 3_600_000, true)).toBe(120_000);
    expect(assessmentBudget(60_000, 200, 120, 3_600_000, true)).toBe(61_200);
  });
});
