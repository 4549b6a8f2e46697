// The assessment's second checkout made by copying the first right after its setup: the files
// copied, node_modules linked and shown to the runs made there, and no copy of a checkout that holds
// a Python environment (an editable install in it names the first checkout's sources). And where the
// search after the look gets its second checkout (later-second.ts).
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandView, SuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { standInGate, standInSuite } from '../support/stand-in-suite.ts';
import { forkedCheckout } from '../../src/assess/second-checkout.ts';
import { laterSecond } from '../../src/assess/later-second.ts';

let root: string;
let first: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'fixloop-second-checkout-'));
  first = join(root, 'assess');
  await mkdir(join(first, 'node_modules', 'left-pad'), { recursive: true });
  await writeFile(join(first, 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;\n');
  await mkdir(join(first, 'src'));
  await writeFile(join(first, 'src', 'a.js'), 'export const a = 1;\n');
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A suite that notes where each run was and what it was shown. */
function noting(views: Array<{ cwd: string; view?: CommandView }>): SuiteRunner {
  return standInSuite(async (cwd, view) => {
    views.push({ cwd, ...(view ? { view } : {}) });
    return standInGate(true);
  });
}

describe('the second checkout copied from the first', () => {
  it('copies the files, links node_modules, and shows it to the runs in the copy only', async () => {
    const views: Array<{ cwd: string; view?: CommandView }> = [];
    const forked = await forkedCheckout(first, join(root, 'assess-b'), noting(views));
    if (!forked) throw new Error('no second checkout');
    expect(await readFile(join(forked.dir, 'src', 'a.js'), 'utf8')).toBe('export const a = 1;\n');
    expect((await lstat(join(forked.dir, 'node_modules'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(forked.dir, 'node_modules'))).toBe(join(first, 'node_modules'));
    await forked.suite.gateWith(forked.dir, 'npm test', 1000, { tmpDir: '/kept' });
    await forked.suite.gateWith(first, 'npm test', 1000);
    expect(views[0]?.view?.tmpDir).toBe('/kept');
    expect(views[0]?.view?.mounts?.map((m) => m.path)).toContain(join(first, 'node_modules'));
    expect(views[1]?.view).toBeUndefined();
  });

  it('shows the linked folders to the plain processes made in the copy (the look from outside, the rival screen)', async () => {
    const shown: Array<{ cwd: string; view?: Pick<CommandView, 'mounts'> }> = [];
    const suite: SuiteRunner = {
      ...noting([]),
      plain: async (cwd, _command, _timeoutMs, view) => {
        shown.push({ cwd, ...(view ? { view } : {}) });
        return { exitCode: 0, signal: null, timedOut: false, killed: false, output: '', truncatedBytes: 0, durationMs: 1 };
      },
    };
    const forked = await forkedCheckout(first, join(root, 'assess-b'), suite);
    if (!forked) throw new Error('no second checkout');
    await forked.suite.plain(forked.dir, 'node call.cjs', 1000);
    await forked.suite.plain(first, 'node call.cjs', 1000);
    expect(shown[0]?.view?.mounts?.map((m) => m.path)).toContain(join(first, 'node_modules'));
    expect(shown[1]?.view).toBeUndefined();
  });

  it('is not made from a checkout that holds a Python environment', async () => {
    await mkdir(join(first, '.venv', 'bin'), { recursive: true });
    expect(await forkedCheckout(first, join(root, 'assess-b'), noting([]))).toBeNull();
    await expect(lstat(join(root, 'assess-b'))).rejects.toThrow();
  });
});

describe('the second checkout of the search after the look', () => {
  const wanted = { others: [], focused: ['npx mocha --grep x'] };
  const asking = (suite: SuiteRunner) => ({ suite, fixed: [{}], searchRivals: true });

  it('is a copy of the first, made at once, with the suite that shows the copy its linked folders', async () => {
    const views: Array<{ cwd: string; view?: CommandView }> = [];
    const later = await laterSecond(asking(noting(views)), wanted, { dir: first, setUpAgain: null });
    expect(await later.second?.()).toBe(`${first}-b`);
    expect(await readFile(join(`${first}-b`, 'src', 'a.js'), 'utf8')).toBe('export const a = 1;\n');
    await later.suite?.gateWith(`${first}-b`, 'npm test', 1000);
    expect(views[0]?.view?.mounts?.map((m) => m.path)).toContain(join(first, 'node_modules'));
  });

  it('is set up anew where no copy can be made and that was quick, else there is none', async () => {
    await mkdir(join(first, '.venv', 'bin'), { recursive: true });
    const setUpAgain = async () => join(root, 'set-up-again');
    const quick = await laterSecond(asking(noting([])), wanted, { dir: first, setUpAgain });
    expect(await quick.second?.()).toBe(join(root, 'set-up-again'));
    expect(quick.suite).toBeUndefined();
    expect(await laterSecond(asking(noting([])), wanted, { dir: first, setUpAgain: null })).toEqual({});
  });

  it('is not made where no search can be wanted: the engine offered alternatives, or the failing tests cannot run alone', async () => {
    const suite = noting([]);
    expect(await laterSecond(asking(suite), { ...wanted, others: [{}] }, { dir: first, setUpAgain: null })).toEqual({});
    expect(await laterSecond(asking(suite), { ...wanted, focused: [] }, { dir: first, setUpAgain: null })).toEqual({});
    expect(await laterSecond({ suite, fixed: [{}] }, wanted, { dir: first, setUpAgain: null })).toEqual({});
    await expect(lstat(`${first}-b`)).rejects.toThrow();
  });
});
