// The dependency cache's rules: one folder per repository, a tree reused only for a plain install of
// the same manifest and lockfile, and copied, so a checkout's code never writes the saved tree.
import { lstat, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheRootFrom, openDependencyCache } from '../../src/workspace/dependency-cache.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-depcache-'));
  dirs.push(dir);
  return dir;
}

async function project(scripts: Record<string, string> = {}): Promise<string> {
  const dir = await temp();
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'p', scripts, dependencies: { a: '1.0.0' } }));
  await writeFile(join(dir, 'package-lock.json'), '{"lockfileVersion":3}');
  return dir;
}

describe('the dependency cache', () => {
  it('gives each repository its own folder and points npm and pip at it', async () => {
    const root = await temp();
    const one = await openDependencyCache(root, 'github.com/acme/one');
    const two = await openDependencyCache(root, 'github.com/acme/two');
    expect(one.root).not.toBe(two.root);
    expect(one.env.npm_config_cache?.startsWith(one.root)).toBe(true);
    expect(one.env.PIP_CACHE_DIR?.startsWith(one.root)).toBe(true);
  });

  it('keys a tree by the install command, manifest and lockfile, and only for plain installs without install scripts', async () => {
    const cache = await openDependencyCache(await temp(), 'repo');
    const plain = await project({ test: 'node --test' });
    const key = await cache.treeKey(plain, 'npm ci');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(await cache.treeKey(plain, 'npm ci --no-audit')).not.toBe(key);
    expect(await cache.treeKey(plain, 'npm ci && npm run build')).toBeNull();
    expect(await cache.treeKey(await project({ prepare: 'tsc' }), 'npm ci')).toBeNull();
    expect(await cache.treeKey(await temp(), 'npm ci')).toBeNull();
  });

  it('restores a copy of the saved tree, never the saved files themselves', async () => {
    const cache = await openDependencyCache(await temp(), 'repo');
    const first = await project();
    await mkdir(join(first, 'node_modules', 'a'), { recursive: true });
    await writeFile(join(first, 'node_modules', 'a', 'index.js'), 'original');
    const key = (await cache.treeKey(first, 'npm ci')) ?? '';
    expect(await cache.restoreTree(key, first)).toBe(false);
    await cache.saveTree(key, first);
    const second = await project();
    expect(await cache.restoreTree(key, second)).toBe(true);
    // The repository's code in the second checkout rewrites its copy; the saved tree is untouched.
    await writeFile(join(second, 'node_modules', 'a', 'index.js'), 'poisoned');
    const third = await project();
    await cache.restoreTree(key, third);
    expect(await readFile(join(third, 'node_modules', 'a', 'index.js'), 'utf8')).toBe('original');
    expect((await lstat(join(third, 'node_modules'))).isSymbolicLink()).toBe(false);
  });

  it('lives in FIXLOOP_CACHE_DIR, the App\'s data folder, or the user\'s cache folder', () => {
    expect(cacheRootFrom({ FIXLOOP_CACHE_DIR: '/c' }, '/data')).toBe('/c');
    expect(cacheRootFrom({}, '/data')).toBe('/data/cache');
    expect(cacheRootFrom({ XDG_CACHE_HOME: '/x' })).toBe('/x/fixloop');
  });
});
