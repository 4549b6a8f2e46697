import { describe, expect, it } from 'vitest';
import type { ProbeCheckout, ProbeRun } from '../../src/assess/probe-checkout.ts';
import type { VersionPlan } from '../../src/assess/probe-plan.ts';
import type { ProbeRecord, ProbedFunction } from '../../src/assess/probe-record.ts';
import { lookWithNoise, runAndLook } from '../../src/assess/run-and-look.ts';

const FN = 'src/stamp.js#stamp';
const functions = new Map<string, ProbedFunction>([[FN, { id: FN, name: 'stamp', path: 'src/stamp.js', line: 1 }]]);
const call = (args: string, returned: string, test: string): ProbeRecord => ({
  fn: FN,
  args,
  kind: 'suite',
  out: { returned },
  testLines: [test],
});
const FAILING = 'test/stamp.test.js:3';
const plan = (name: string): VersionPlan => ({ name, files: new Map() });
const plans = { original: plan('original'), versions: [plan('patched')] };

/** A checkout whose runs record what `records(label, n)` says (n: how many times that label ran), and which counts its runs. */
function checkout(records: (label: string, n: number) => ProbeRecord[]): ProbeCheckout & { labels: string[] } {
  const labels: string[] = [];
  return {
    dir: '/nowhere',
    labels,
    async run(_plan, label): Promise<ProbeRun> {
      labels.push(label);
      const spent = { writeMs: 0, suiteMs: 0, readMs: 0 };
      return { records: records(label, labels.filter((l) => l === label).length), functions, gate: null, spent };
    },
    writePlain: () => Promise.reject(new Error('this test writes no plain version')),
    withoutTests: () => Promise.reject(new Error('this test hides no test')),
    withoutFiles: () => Promise.reject(new Error('this test moves no file')),
    generating: () => 'all',
    stopGenerating: () => Promise.reject(new Error('this test turns nothing off')),
  };
}

const look = (probe: ProbeCheckout) =>
  runAndLook(probe, plans, {
    input: { fixed: [], log: () => undefined },
    focused: [],
    left: () => 60_000,
    fromFailing: (r) => r.testLines?.[0] === FAILING,
  });

describe('the versions run again for their noise only when it could explain a difference', () => {
  it('runs each version once when nothing changed outside the failing tests', async () => {
    const probe = checkout((label) => [
      call('1', label.startsWith('patched') ? "'fixed'" : "'broken'", FAILING),
      call('2', "'same'", 'test/stamp.test.js:9'),
    ]);
    const { looked } = await look(probe);
    expect(probe.labels).toEqual(['patched', 'original']);
    expect(looked?.differences.changes.map((c) => [c.input, c.nearFailing])).toEqual([['stamp(1)', true]]);
  });

  it('runs them again when a change outside the failing tests could be noise, and masks what is', async () => {
    // A time stamp in the result: another at every run of either version.
    let clock = 1000;
    const probe = checkout(() => [call('2', `'at ${clock++}'`, 'test/stamp.test.js:9')]);
    const { looked, runs } = await look(probe);
    expect(probe.labels).toEqual(['patched', 'original', 'original-again', 'patched-again']);
    expect(runs.againRun).toBe(true);
    expect(looked?.differences.changes).toEqual([]);
  });

  it('runs them again once when asked later (a rival that disagrees), and learns the noise then', async () => {
    let clock = 1000;
    // Only the failing test's call carries the stamp: nothing outside it asks for the noise first.
    const probe = checkout((label) => [call('1', `'${label.startsWith('patched') ? 'fixed' : 'broken'} ${clock++}'`, FAILING)]);
    const { runs, looked } = await look(probe);
    expect(probe.labels).toEqual(['patched', 'original']);
    expect(looked?.noise.masked.size).toBe(0);
    const at = {
      input: { log: () => undefined },
      left: () => 60_000,
      fromFailing: (r: ProbeRecord) => r.testLines?.[0] === FAILING,
    };
    const again = await lookWithNoise(probe, plans, runs, at);
    expect(probe.labels).toEqual(['patched', 'original', 'original-again', 'patched-again']);
    expect(again?.noise.masked.size).toBeGreaterThan(0);
    expect(await lookWithNoise(probe, plans, runs, at)).toBeNull();
    expect(probe.labels).toHaveLength(4);
  });
});
