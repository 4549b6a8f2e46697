// Dependencies installed from the checkout's own folders (src/assess/installed-from-checkout.ts), on
// real links: a `file:` dependency and a scoped workspace package are found where their links lead;
// a registry package, a link out of the checkout and a broken link are not.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { insideAny, installedFromCheckout } from '../../src/assess/installed-from-checkout.ts';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('installedFromCheckout', () => {
  it("names the checkout's folders that node_modules links to, scoped ones too", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'installed-'));
    const outside = await mkdtemp(join(tmpdir(), 'installed-outside-'));
    made.push(dir, outside);
    for (const folder of ['packages/decoder', 'packages/ui', 'node_modules/@acme', 'node_modules/left-pad'])
      await mkdir(join(dir, folder), { recursive: true });
    await writeFile(join(dir, 'node_modules/left-pad/index.js'), '');
    await symlink('../packages/decoder', join(dir, 'node_modules/csv-decoder'));
    await symlink('../../packages/ui', join(dir, 'node_modules/@acme/ui'));
    await symlink(outside, join(dir, 'node_modules/elsewhere'));
    await symlink('../packages/gone', join(dir, 'node_modules/gone'));
    const folders = await installedFromCheckout(dir);
    expect(folders.sort()).toEqual(['packages/decoder', 'packages/ui']);
    expect(insideAny('packages/decoder/index.js', folders)).toBe(true);
    expect(insideAny('packages/decoder-extra/index.js', folders)).toBe(false);
    expect(insideAny('src/index.js', folders)).toBe(false);
  });

  it('reads a link from where the checkout has it, when node_modules is itself a link to a saved tree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'installed-'));
    const saved = await mkdtemp(join(tmpdir(), 'installed-tree-'));
    made.push(dir, saved);
    await mkdir(join(dir, 'packages/decoder'), { recursive: true });
    await mkdir(join(saved, 'node_modules'));
    await symlink('../packages/decoder', join(saved, 'node_modules/csv-decoder'));
    await symlink(join(saved, 'node_modules'), join(dir, 'node_modules'));
    expect(await installedFromCheckout(dir)).toEqual(['packages/decoder']);
  });

  it('names none without node_modules', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'installed-'));
    made.push(dir);
    expect(await installedFromCheckout(dir)).toEqual([]);
  });
});
