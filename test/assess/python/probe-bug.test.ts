// What the Python probe is for: a realistic bug (a condition that reads the wrong variable) and its
// fix, each version instrumented on its own changed lines and run under real pytest. The suite's
// calls outside the failing test agree; inputs generated around them show where behaviour changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbedFunction, ProbeRecord } from '../../../src/assess/probe-record.ts';
import { cleanup, fixture, preferResolvedPython, prepare, pytest, records, type PytestRun } from './probe-support.ts';

preferResolvedPython();

const FAILING = 'test_filenames.py::test_extension_of_a_file_in_a_dotted_folder';

interface Version {
  run: PytestRun;
  records: ProbeRecord[];
  functions: ProbedFunction[];
}

let original: Version;
let patched: Version;

async function version(folder: string, changed: number[]): Promise<Version> {
  const module = await fixture(`bug/${folder}/filenames.py`);
  const prepared = await prepare([module, await fixture('bug/test_filenames.py')], { 'filenames.py': new Set(changed) });
  const run = await pytest(prepared.dir);
  return { run, records: await records(prepared.recordFile), functions: prepared.functions };
}

beforeAll(async () => {
  // The diff: the patched file has two more docstring lines (2-3, outside any def) and a new condition.
  [original, patched] = await Promise.all([version('original', [13]), version('patched', [2, 3, 15])]);
});
afterAll(cleanup);

const key = (r: ProbeRecord) => `${r.fn} ${r.args}`;

describe('the Python probe on a fix', () => {
  it('probes the changed function only, under one id, though its lines moved', () => {
    expect(original.functions).toEqual([{ id: 'filenames.py#extension', name: 'extension', path: 'filenames.py', line: 10 }]);
    expect(patched.functions).toEqual([{ id: 'filenames.py#extension', name: 'extension', path: 'filenames.py', line: 12 }]);
    expect(original.run.outcomes).toContain(`FAILED ${FAILING}`);
    expect(patched.run.code).toBe(0);
  });

  it("finds the suite's calls outside the failing test unchanged, and the failing test's call changed", () => {
    const suite = (v: Version) => v.records.filter((r) => r.kind === 'suite');
    const outside = (v: Version) => suite(v).filter((r) => r.site !== FAILING);
    expect(outside(original).map((r) => [r.args, r.out, r.site])).toEqual(outside(patched).map((r) => [r.args, r.out, r.site]));
    expect(outside(original).map((r) => r.args)).toEqual(["'photo.JPG'", "'notes', default='txt'", "'archive.tar.gz'"]);
    expect(suite(original).find((r) => r.site === FAILING)?.out).toEqual({ threw: 'IndexError: list index out of range' });
    expect(suite(patched).find((r) => r.site === FAILING)?.out).toEqual({ returned: "''" });
  });

  it("shows generated inputs around a passing test's call whose result the patch changed", () => {
    const before = new Map(original.records.filter((r) => r.kind === 'generated').map((r) => [key(r), r]));
    const changed = patched.records.filter(
      (r) => r.kind === 'generated' && before.has(key(r)) && JSON.stringify(before.get(key(r))?.out) !== JSON.stringify(r.out),
    );
    const aroundPhoto = changed.filter((r) => r.base === "'photo.JPG'");
    expect(aroundPhoto.map((r) => [r.args, before.get(key(r))?.out, r.out])).toContainEqual([
      "'photo.JPG/'",
      { threw: 'IndexError: list index out of range' },
      { returned: "''" },
    ]);
    // Where the two agree there is nothing to show: most generated inputs give the same result.
    const same = patched.records.filter(
      (r) => r.kind === 'generated' && JSON.stringify(before.get(key(r))?.out) === JSON.stringify(r.out),
    );
    expect(same.length).toBeGreaterThan(changed.length);
    expect(same.map((r) => r.args)).toContain("'photo.jpg'");
  });
});
