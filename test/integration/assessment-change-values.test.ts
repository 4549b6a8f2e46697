// Inputs made from the change's own values (docs/design.md §3.3, change-values.ts), end to end with the
// real `fixloop run` and the `script` engine: a patch that moves a bound the suite's inputs never come
// near is seen on the other side of that bound, outside the failing tests (`review`), and the fix that
// leaves the bound alone stays `verified`.
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { removeScriptedRuns, scriptedRun } from '../support/scripted-run.ts';
import { writeFile } from '../support/judge-cheat-run.ts';
import { BOUND_MOVED_SHIPPING, FIXED_SHIPPING, SHIPPING_PROJECT } from '../fixtures/shipping-cost.ts';

afterAll(removeScriptedRuns);

async function runWith(patched: string): Promise<RunResult> {
  return (await scriptedRun(SHIPPING_PROJECT, 'node --test', writeFile('src/shipping.js', patched))).result;
}

describe("the assessment's inputs made from the change's constants", () => {
  it('shows a patch that also moved a bound at review, with an input just past the old bound', async () => {
    const result = await runWith(BOUND_MOVED_SHIPPING);
    expect(result.status).toBe('tests_green');
    const outside = result.assessment?.behaviourChanges.filter((c) => !c.nearFailing) ?? [];
    expect(result.assessment?.level).toBe('review');
    expect(outside).toContainEqual(
      expect.objectContaining({ kind: 'generated', input: 'shippingCost(21)', before: '15', after: '5' }),
    );
  });

  it('keeps the fix that leaves the bound alone verified', async () => {
    const result = await runWith(FIXED_SHIPPING);
    expect(result.status).toBe('tests_green');
    expect(result.assessment?.level).toBe('verified');
  });
});
