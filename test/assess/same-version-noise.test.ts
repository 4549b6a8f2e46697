import { describe, expect, it } from 'vitest';
import { compareVersions, indexRecords, nearFailingOf } from '../../src/assess/compare-records.ts';
import { learnNoise } from '../../src/assess/learn-noise.ts';
import { pairedChanges } from '../../src/assess/paired-calls.ts';
import type { ProbeRecord, ProbedFunction } from '../../src/assess/probe-record.ts';
import { NoiseLearner, ruleFor } from '../../src/assess/same-version-noise.ts';

const FN = 'src/make.js#make';
const functions = new Map<string, ProbedFunction>([[FN, { id: FN, name: 'make', path: 'src/make.js', line: 1 }]]);
const suite = (args: string, returned: string, testLines = ['test/make.test.js:7']): ProbeRecord => ({
  fn: FN,
  args,
  kind: 'suite',
  out: { returned },
  site: 'src/index.js:12',
  testLines,
});
const generated = (args: string, base: string, returned: string): ProbeRecord => ({
  fn: FN,
  args,
  kind: 'generated',
  base,
  out: { returned },
});
const noFailing = nearFailingOf([]);

/** The changes from the original (run twice) to the patched version, with the original's noise. */
function changesWith(first: ProbeRecord[], again: ProbeRecord[], patched: ProbeRecord[]) {
  const before = indexRecords(first);
  const noise = learnNoise(before, indexRecords(again)).noise();
  return compareVersions(before, indexRecords(patched), functions, noFailing, noise);
}

describe('what differs between two runs of the same version', () => {
  it('masks an identity hash, a timestamp and a random id, and still sees a real change beside them', () => {
    const run = (id: string, at: string, total: number) =>
      `Receipt { id: '${id}', at: Date(${at}), owner: Object@${id.slice(0, 4)}, total: ${total} }`;
    const first = [
      suite("'a'", run('k3j9x2', '2024-05-01T10:00:00.120Z', 3)),
      suite("'b'", run('p0q1r2', '2024-05-01T10:00:00.125Z', 5)),
    ];
    const again = [
      suite("'a'", run('zz81ab', '2024-05-01T10:00:01.730Z', 3)),
      suite("'b'", run('m4n5o6', '2024-05-01T10:00:01.731Z', 5)),
    ];
    const patched = [
      suite("'a'", run('q9w8e7', '2024-05-01T10:00:02.004Z', 3)),
      suite("'b'", run('t5y6u7', '2024-05-01T10:00:02.009Z', 6)),
    ];
    const { changes, unstable } = changesWith(first, again, patched);
    expect(unstable).toBe(0);
    expect(changes.map((c) => c.input)).toEqual(["make('b')"]);
    expect(changes[0]?.after).toContain('total: 6');
  });

  it('learns a timestamp as one value: two runs in the same second, a later run a minute on, are alike', () => {
    const run = (at: string, total: number) => `{ at: '${at}', total: ${total} }`;
    const first = [suite("'a'", run('2024-05-01T10:00:56.285Z', 3))];
    const again = [suite("'a'", run('2024-05-01T10:00:56.291Z', 3))];
    expect(changesWith(first, again, [suite("'a'", run('2024-05-01T10:01:01.146Z', 3))]).changes).toEqual([]);
    // The total beside it still counts.
    expect(changesWith(first, again, [suite("'a'", run('2024-05-01T10:01:01.146Z', 4))]).changes).toHaveLength(1);
  });

  it('without the second run of the original, the noise itself is a change (the rule is what removes it)', () => {
    const before = indexRecords([suite("'a'", "{ id: 'k3j9x2' }")]);
    const { changes } = compareVersions(before, indexRecords([suite("'a'", "{ id: 'q9w8e7' }")]), functions, noFailing);
    expect(changes).toHaveLength(1);
  });

  it('compares results whose keys come in another order in every run as bags of tokens', () => {
    const first = [suite("'a'", "Set { 'x', 'y', 'z' }")];
    const again = [suite("'a'", "Set { 'z', 'x', 'y' }")];
    expect(changesWith(first, again, [suite("'a'", "Set { 'y', 'z', 'x' }")]).changes).toEqual([]);
    expect(changesWith(first, again, [suite("'a'", "Set { 'y', 'x' }")]).changes).toHaveLength(1);
  });

  it('leaves out and counts a call whose very shape varies between runs of one version', () => {
    const first = [suite("'a'", "[{ n: 1 }, 'ok']"), generated("'b'", "'a'", '1')];
    const again = [suite("'a'", "['ok']"), generated("'b'", "'a'", '1')];
    const patched = [suite("'a'", '[{ n: 2 }]'), generated("'b'", "'a'", '2')];
    const { changes, unstable, generatedCompared } = changesWith(first, again, patched);
    expect(unstable).toBe(1);
    expect(generatedCompared).toBe(1);
    expect(changes.map((c) => c.input)).toEqual(["make('b')"]);
  });

  it('masks a generated input whose result carries a random id', () => {
    const first = [generated("'b'", "'a'", "'id-4f2a'")];
    const again = [generated("'b'", "'a'", "'id-91c0'")];
    expect(changesWith(first, again, [generated("'b'", "'a'", "'id-77de'")]).changes).toEqual([]);
    expect(changesWith(first, again, [generated("'b'", "'a'", "'key-77de'")]).changes).toHaveLength(1);
  });

  it('a mask keeps structure: quotes, brackets and separators must match', () => {
    const rule = ruleFor("{ id: 'a1', n: 2 }", "{ id: 'b22', n: 2 }");
    expect(rule?.alike("{ id: 'c3', n: 2 }", "{ id: 'a1', n: 2 }")).toBe(true);
    expect(rule?.alike("{ id: 'c3', n: 2, m: 1 }", "{ id: 'a1', n: 2 }")).toBe(false);
    expect(rule?.alike("{ id: 'c 3', n: 2 }", "{ id: 'a1', n: 2 }")).toBe(false);
    expect(ruleFor('[1, 2]', "['x']")).toBeNull();
  });

  it('learns from the patched version’s two runs as well', () => {
    const learner = new NoiseLearner();
    learnNoise(indexRecords([suite("'a'", "'t=1001'")]), indexRecords([suite("'a'", "'t=1001'")]), learner);
    learnNoise(indexRecords([suite("'a'", "'t=1004'")]), indexRecords([suite("'a'", "'t=1009'")]), learner);
    const before = indexRecords([suite("'a'", "'t=1001'")]);
    const { changes } = compareVersions(before, indexRecords([suite("'a'", "'t=1004'")]), functions, noFailing, learner.noise());
    expect(changes).toEqual([]);
  });
});

describe('pairing a call of one version with the same call of the other', () => {
  it('pairs by test, position and arguments: two calls with options the text does not show are not mixed', () => {
    // One test calls make('a', encoder) twice, with two different encoders both shown `[Function encode]`.
    const args = "'a', [Function encode]";
    const before = indexRecords([suite(args, "'A'"), suite(args, "'a%'")]);
    const after = indexRecords([suite(args, "'A'"), suite(args, "'a%25'")]);
    const { changes } = compareVersions(before, after, functions, noFailing);
    expect(changes.map((c) => [c.before, c.after])).toEqual([["'a%'", "'a%25'"]]);
  });

  it('keeps two tests apart that reach the function through the same helper line', () => {
    const helper = (test: string) => ['test/helpers.js:3', test];
    const before = indexRecords([
      suite("'a'", '1', helper('test/make.test.js:10')),
      suite("'a'", '2', helper('test/make.test.js:20')),
    ]);
    const after = indexRecords([
      suite("'a'", '2', helper('test/make.test.js:20')),
      suite("'a'", '1', helper('test/make.test.js:10')),
    ]);
    expect(compareVersions(before, after, functions, noFailing).changes).toEqual([]);
    const swapped = indexRecords([
      suite("'a'", '2', helper('test/make.test.js:10')),
      suite("'a'", '1', helper('test/make.test.js:20')),
    ]);
    expect(compareVersions(before, swapped, functions, noFailing).changes).toHaveLength(2);
  });

  it('compares as sets when the versions made another number of the same calls', () => {
    const same = (a: string, b: string) => a === b;
    expect(pairedChanges(['1'], ['1', '1'], same)).toEqual([]);
    expect(pairedChanges(['1'], ['1', '2'], same)).toEqual([{ before: '1', after: '1 | 2' }]);
    expect(pairedChanges(['1', '2'], ['2', '1'], same)).toEqual([
      { before: '1', after: '2' },
      { before: '2', after: '1' },
    ]);
  });
});
