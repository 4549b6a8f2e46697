import { describe, expect, it } from 'vitest';
import { runWithin, type ProbeCheckout, type ProbeRun } from '../../src/assess/probe-checkout.ts';
import type { VersionPlan } from '../../src/assess/probe-plan.ts';

const plan = { files: new Map() } as unknown as VersionPlan;

/** A checkout whose one run took the time `spent` says and was handed `timeouts`. */
function checkout(spent: ProbeRun['spent'], timeouts: number[]): ProbeCheckout {
  return {
    dir: '/nowhere',
    async run(_plan, _label, timeoutMs): Promise<ProbeRun> {
      timeouts.push(timeoutMs);
      return { records: [], functions: new Map(), gate: null, spent };
    },
    writePlain: () => Promise.reject(new Error('this test writes no plain version')),
  };
}

describe('one probed run within what is left of the budget', () => {
  it('says where its time went: writing the version, the suite, reading the records', async () => {
    const lines: string[] = [];
    const timeouts: number[] = [];
    const spent = { writeMs: 1200, suiteMs: 88_300, readMs: 400 };
    await runWithin(
      checkout(spent, timeouts),
      plan,
      'patched',
      () => 120_000,
      (line) => lines.push(line),
    );
    expect(timeouts).toEqual([120_000]);
    expect(lines).toEqual([
      'assessment: patched',
      'assessment: patched: 1.2 s writing the probed version, 88.3 s the suite, 0.4 s reading 0 records',
    ]);
  });

  it('runs nothing when less than a second is left', async () => {
    const timeouts: number[] = [];
    const result = await runWithin(
      checkout({ writeMs: 0, suiteMs: 0, readMs: 0 }, timeouts),
      plan,
      'original',
      () => 999,
      () => undefined,
    );
    expect(result).toEqual({ run: null, exhausted: true });
    expect(timeouts).toEqual([]);
  });
});
