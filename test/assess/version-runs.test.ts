// The probed runs of the versions (src/assess/version-runs.ts): a probed run of the patched program
// that did not pass a test the replay saw pass may have been broken by a generated call, so the
// versions run again without the calls generated around nested functions, then on the suite's own
// calls, with generation turned off in the checkout.
import { describe, expect, it } from 'vitest';
import type { Generation, ProbeCheckout, ProbeRun } from '../../src/assess/probe-checkout.ts';
import type { VersionPlan } from '../../src/assess/probe-plan.ts';
import { runVersions } from '../../src/assess/version-runs.ts';
import type { GateResult } from '../../src/core/gate-result.ts';
import { gateOf } from '../support/report-of.ts';

const plan = (name: string): VersionPlan => ({ name, files: new Map() });
const plans = { original: plan('original'), versions: [plan('patched')] };
const FIXED = { id: 'rounds half up', name: 'rounds half up', status: 'passed' as const };

/** A checkout whose runs end as `gate(label, generating)` says, and which keeps the labels it ran. */
function checkout(gate: (label: string, generating: Generation) => GateResult | null) {
  const labels: string[] = [];
  let generating: Generation = 'all';
  const probe: ProbeCheckout = {
    dir: '/nowhere',
    async run(_plan, label): Promise<ProbeRun> {
      labels.push(label);
      return { records: [], functions: new Map(), gate: gate(label, generating), spent: { writeMs: 0, suiteMs: 0, readMs: 0 } };
    },
    writePlain: () => Promise.reject(new Error('this test writes no plain version')),
    withoutTests: () => Promise.reject(new Error('this test hides no test')),
    withoutFiles: () => Promise.reject(new Error('this test moves no file')),
    generating: () => generating,
    stopGenerating: async (scope) => void (generating = scope === 'nested' ? 'top-level' : 'none'),
  };
  return { probe, labels, generating: () => generating };
}

const run = (probe: ProbeCheckout, lines: string[]) =>
  runVersions(probe, plans, { fixed: [FIXED], log: (line) => lines.push(line) }, [], () => 60_000);

describe('the versions run again without generated inputs when they broke the probed run', () => {
  it('runs the patched program again, and every later version, without those around nested functions when that is enough', async () => {
    const at = checkout((_label, generating) => gateOf([[FIXED.id, generating === 'all' ? 'failed' : 'passed']]));
    const lines: string[] = [];
    const runs = await run(at.probe, lines);
    expect(at.labels).toEqual(['patched', 'patched-top-level-generated', 'original']);
    expect(at.generating()).toBe('top-level');
    expect(runs.patched?.gate?.passed).toBe(true);
  });

  it('runs the patched program again, and every later version, without any when those around top-level functions broke it too', async () => {
    const at = checkout((_label, generating) => gateOf([[FIXED.id, generating !== 'none' ? 'failed' : 'passed']]));
    const lines: string[] = [];
    const runs = await run(at.probe, lines);
    expect(at.labels).toEqual(['patched', 'patched-top-level-generated', 'patched-suite-calls-only', 'original']);
    expect(at.generating()).toBe('none');
    expect(runs.patched?.gate?.passed).toBe(true);
    expect(lines).toContain(
      'assessment: the probed run did not pass every test the patch fixed; running the versions again without generated inputs',
    );
  });

  it('runs each version once when the probed run passed the fixed tests, and tries again at most twice', async () => {
    const passing = checkout(() => gateOf([[FIXED.id, 'passed']]));
    await run(passing.probe, []);
    expect(passing.labels).toEqual(['patched', 'original']);
    expect(passing.generating()).toBe('all');
    const failing = checkout(() => gateOf([[FIXED.id, 'failed']]));
    await run(failing.probe, []);
    expect(failing.labels).toEqual(['patched', 'patched-top-level-generated', 'patched-suite-calls-only', 'original']);
  });

  it('keeps generating when the patched version was not run: nothing in it was instrumented (a patch to a table)', async () => {
    const unrun = checkout(() => null);
    const lines: string[] = [];
    await run(unrun.probe, lines);
    expect(unrun.labels).toEqual(['patched', 'original']);
    // The look at the entry points that follows generates inputs around them.
    expect(unrun.generating()).toBe('all');
    expect(lines.filter((line) => line.includes('did not pass'))).toEqual([]);
  });
});
