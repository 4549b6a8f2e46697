// The assessment's second checkout made by copying the first right after its setup: the files
// copied, node_modules linked and shown to the runs made there, and no copy of a checkout that holds
// a Python environment (an editable install in it names the first checkout's sources).
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandView, SuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { standInGate, standInSuite } from '../support/stand-in-suite.ts';
import { forkedCheckout } from '../../src/assess/second-checkout.ts';

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

  it('is not made from a checkout that holds a Python environment', async () => {
    await mkdir(join(first, '.venv', 'bin'), { recursive: true });
    expect(await forkedCheckout(first, join(root, 'assess-b'), noting([]))).toBeNull();
    await expect(lstat(join(root, 'assess-b'))).rejects.toThrow();
  });
});
