// The screen of rival patches (src/assess/rival-screen.ts), with real plain `node` processes: a
// one-edit candidate that gives the original's result on every call the patch changed is set aside
// unrun, one that gives anything else is not; and nothing is set aside where the rule could hide a
// rival the failing tests pass (a changed call the plain process cannot make, no failing test's own
// call among them, a call whose result outside is not the one the runner saw).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rivalScreen, type ScreenedRuns, type ScreenedVersions } from '../../src/assess/rival-screen.ts';
import type { Outcomes } from '../../src/assess/outside-process.ts';
import type { ProbeRecord, ProbedFunction } from '../../src/assess/probe-record.ts';
import type { SuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';

const FILE = 'src/order.js';
const source = (body: string) => `'use strict';\nfunction before(a, b) {\n  return ${body};\n}\nmodule.exports = { before };\n`;
const ORIGINAL = source('a < b');
const PATCHED = source('a <= b');

const fn: ProbedFunction = { id: `${FILE}#before`, name: 'before', path: FILE, line: 2 };
const functions = new Map([[fn.id, fn]]);

/** A suite call of `before` with `args`, which returned `returned` under the runner. */
function call(args: [number, number], returned: string, exact = true): ProbeRecord {
  const record: ProbeRecord = {
    fn: fn.id,
    args: args.join(', '),
    kind: 'suite',
    out: { returned },
    site: 'test/order.test.js:4',
  };
  return exact ? { ...record, replay: JSON.stringify(args) } : record;
}

/** The failing test's call `before(2, 2)`, which the patch changed; `before(1, 2)`, which it did not. */
const BASIS = basis([call([2, 2], 'false'), call([1, 2], 'true')], [call([2, 2], 'true'), call([1, 2], 'true')]);

function basis(original: ProbeRecord[], patched: ProbeRecord[]): ScreenedRuns {
  return { original: { records: original }, patched: { records: patched, functions } };
}

/** The failing test's own calls. */
const NEAR = { keys: new Set([`${fn.id}\u00002, 2`]) };

/** A suite runner whose plain processes are real, run by the process sandbox (its time limit kills the tree). */
const sandbox = createProcessSandbox();
const suite = {
  testCommand: 'node --test',
  plain: (cwd: string, command: string, timeoutMs: number) => sandbox.run({ command, cwd, timeoutMs }),
} as unknown as SuiteRunner;

let dir: string;
const logged: string[] = [];
const tools = { suite, left: () => 60_000, log: (line: string) => logged.push(line) };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fixloop-rival-screen-'));
  await mkdir(join(dir, 'src'));
  await writeFile(join(dir, FILE), ORIGINAL);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Each version written in the checkout for its work, the original put back after; `seen` collects what the work saw. */
function versions(candidate: string, seen: string[] = []): ScreenedVersions {
  const written = (text: string) => async (work: () => Promise<Outcomes>) => {
    await writeFile(join(dir, FILE), text);
    try {
      seen.push(await readFile(join(dir, FILE), 'utf8'));
      return await work();
    } finally {
      await writeFile(join(dir, FILE), ORIGINAL);
    }
  };
  return { original: written(ORIGINAL), patched: written(PATCHED), candidate: written(candidate) };
}

describe('the screen of rival patches', () => {
  it('sets aside a candidate that gives the original’s result on every changed call, and keeps the others', async () => {
    const screen = rivalScreen(BASIS, NEAR, tools);
    if (!screen) throw new Error(`no screen: ${logged.join('; ')}`);
    const seen: string[] = [];
    // `b > a` is the original again; `a >= b` and `!(a > b)` change before(2, 2), one as the patch does.
    expect(await screen.setsAside(dir, 'b > a', versions(source('b > a'), seen), 30_000)).toBe(true);
    expect(await screen.setsAside(dir, 'a >= b', versions(source('a >= b')), 30_000)).toBe(false);
    expect(await screen.setsAside(dir, '!(a > b)', versions(source('!(a > b)')), 30_000)).toBe(false);
    // The checkout's own check first (the original, then the patch), once; then the candidate.
    expect(seen).toEqual([ORIGINAL, PATCHED, source('b > a')]);
    expect(await readFile(join(dir, FILE), 'utf8')).toBe(ORIGINAL);
  });

  it('keeps a candidate the plain process could not load: a call that gave nothing is no evidence', async () => {
    const screen = rivalScreen(BASIS, NEAR, tools);
    expect(await screen?.setsAside(dir, 'broken', versions('module.exports = {};\n'), 30_000)).toBe(false);
  });

  it('keeps a candidate that does not finish within its run’s bound, having waited no longer', async () => {
    const screen = rivalScreen(BASIS, NEAR, tools);
    const started = Date.now();
    expect(await screen?.setsAside(dir, 'a loop', versions(source('(() => { for (;;); })()')), 1500)).toBe(false);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('screens nothing when a changed call cannot be made outside the runner', () => {
    const inexact = basis(BASIS.original.records.slice(), [call([2, 2], 'true', false), call([1, 2], 'true')]);
    expect(rivalScreen(inexact, NEAR, tools)).toBeNull();
    expect(logged.at(-1)).toContain('1 of the calls the patch changed cannot be made there');
  });

  it('screens nothing when no call the patch changed is a failing test’s own', () => {
    expect(rivalScreen(BASIS, { keys: new Set() }, tools)).toBeNull();
    expect(logged.at(-1)).toContain("none of the calls the patch changed is a failing test's own");
  });

  it('sets nothing aside in a checkout where the changed calls give outside what the runner did not see', async () => {
    // Under the runner, before(2, 2) gave 'maybe' in the original: state the tests set up decides it.
    const screen = rivalScreen(basis([call([2, 2], 'maybe'), call([1, 2], 'true')], BASIS.patched.records.slice()), NEAR, tools);
    expect(await screen?.setsAside(dir, 'b > a', versions(source('b > a')), 30_000)).toBe(false);
    expect(logged.at(-1)).toContain('do not give what they gave under it');
  });
});
