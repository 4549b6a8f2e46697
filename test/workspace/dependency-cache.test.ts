// The dependency cache's rules: one folder per repository, a tree reused only for a plain install of
// the same manifest and lockfile, and given so that a checkout's code never writes the saved tree:
// copied, or linked under a sandbox that shows the trees read-only.
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bwrapWorks, createBwrapSandbox } from '../../src/sandbox/bwrap-sandbox.ts';
import { withMounts } from '../../src/sandbox/with-mounts.ts';
import { isRunKey, type DependencyCache } from '../../src/core/dependency-cache.ts';
import { cacheRootFrom } from '../../src/core/data-dir.ts';
import { openDependencyCache, savedTreeMounts } from '../../src/workspace/dependency-cache.ts';

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

/** A checkout that installed package `a` (its index.js says `content`), and the key of its tree. */
async function installed(cache: DependencyCache, content: string): Promise<{ dir: string; key: string }> {
  const dir = await project();
  await mkdir(join(dir, 'node_modules', 'a'), { recursive: true });
  await writeFile(join(dir, 'node_modules', 'a', 'index.js'), content);
  return { dir, key: (await cache.treeKey(dir, 'npm ci')) ?? '' };
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

  it('keys no tree that links packages of the checkout in: a workspace, a file: or link: dependency, a folder path', async () => {
    const cache = await openDependencyCache(await temp(), 'repo', join(await temp(), 'trees'));
    const manifests = [
      { name: 'p', workspaces: ['packages/*'] },
      { name: 'p', dependencies: { decoder: 'file:packages/decoder' } },
      { name: 'p', devDependencies: { tools: 'link:../tools' } },
      { name: 'p', devDependencies: { tools: './tools' } },
    ];
    for (const manifest of manifests) {
      for (const setup of ['npm ci', 'npm install --no-package-lock']) {
        const dir = await project();
        await writeFile(join(dir, 'package.json'), JSON.stringify(manifest));
        expect(await cache.treeKey(dir, setup), `${setup}: ${JSON.stringify(manifest)}`).toBeNull();
      }
    }
    // A package on itself, so that its tests can require it by its name: a copy leads the link to its
    // own checkout, a link from the cache would not. The run's own tree (always copied), no lockfile's.
    const itself = await project();
    await writeFile(join(itself, 'package.json'), JSON.stringify({ name: 'p', devDependencies: { p: '.' } }));
    expect(await cache.treeKey(itself, 'npm ci')).toBeNull();
    expect(isRunKey((await cache.treeKey(itself, 'npm install --no-package-lock')) ?? '')).toBe(true);
  });

  it('saves no tree that holds a link out of it, however the manifest named the package: the checkout keeps its own', async () => {
    const runFolder = join(await temp(), 'trees');
    const cache = await openDependencyCache(await temp(), 'repo', runFolder);
    const withLink = async (at: string, target: string) => {
      const { dir, key } = await installed(cache, 'original');
      await mkdir(dirname(join(dir, 'node_modules', at)), { recursive: true });
      await symlink(target, join(dir, 'node_modules', at));
      return { dir, key };
    };
    // To the checkout itself: not to be linked from the cache.
    for (const [at, target] of [
      ['p', '..'],
      ['@scope/p', '../..'],
    ] as const) {
      const { dir, key } = await withLink(at, target);
      await cache.saveTree(key, dir, 'link');
      expect((await lstat(join(dir, 'node_modules'))).isSymbolicLink(), at).toBe(false);
      expect(await readFile(join(dir, 'node_modules', at, 'package.json'), 'utf8')).toContain('"name":"p"');
      expect(await cache.restoreTree(key, await project(), 'link'), at).toBeNull();
    }
    // The run's own tree is copied: a link to the checkout itself then leads to the copy's own.
    const { dir: first } = await withLink('p', '..');
    await rm(join(first, 'package-lock.json'));
    const runKey = (await cache.treeKey(first, 'npm install')) ?? '';
    await cache.saveTree(runKey, first, 'copy');
    const second = await project();
    expect(await cache.restoreTree(runKey, second, 'copy')).toBe('copy');
    expect(await readlink(join(second, 'node_modules', 'p'))).toBe('..');
    // Elsewhere (a folder with a node_modules of its own that the tree does not hold): not even copied.
    const { dir: tools } = await withLink('tools', '../tools');
    await rm(join(tools, 'package-lock.json'));
    await writeFile(join(tools, 'package.json'), JSON.stringify({ name: 'q', dependencies: { a: '1.0.0' } }));
    const toolsKey = (await cache.treeKey(tools, 'npm install')) ?? '';
    await cache.saveTree(toolsKey, tools, 'copy');
    expect(await cache.restoreTree(toolsKey, await project(), 'copy')).toBeNull();
    // A link that stays in the tree (a bin) keeps it saved.
    const { dir, key } = await installed(cache, 'original');
    await mkdir(join(dir, 'node_modules', '.bin'));
    await symlink('../a/index.js', join(dir, 'node_modules', '.bin', 'a'));
    await cache.saveTree(key, dir, 'link');
    expect((await lstat(join(dir, 'node_modules'))).isSymbolicLink()).toBe(true);
  });

  it('restores a copy of the saved tree, never the saved files themselves', async () => {
    const cache = await openDependencyCache(await temp(), 'repo');
    const { dir: first, key } = await installed(cache, 'original');
    expect(await cache.restoreTree(key, first, 'copy')).toBeNull();
    await cache.saveTree(key, first, 'copy');
    expect((await lstat(join(first, 'node_modules'))).isSymbolicLink()).toBe(false);
    const second = await project();
    expect(await cache.restoreTree(key, second, 'copy')).toBe('copy');
    // The repository's code in the second checkout rewrites its copy; the saved tree is untouched.
    await writeFile(join(second, 'node_modules', 'a', 'index.js'), 'poisoned');
    const third = await project();
    await cache.restoreTree(key, third, 'copy');
    expect(await readFile(join(third, 'node_modules', 'a', 'index.js'), 'utf8')).toBe('original');
    expect((await lstat(join(third, 'node_modules'))).isSymbolicLink()).toBe(false);
  });

  it('links the saved tree: the installing checkout moves its tree into the cache and links it, like every later one', async () => {
    const cache = await openDependencyCache(await temp(), 'repo');
    const { dir: first, key } = await installed(cache, 'original');
    await cache.saveTree(key, first, 'link');
    const saved = join(cache.trees, key, 'node_modules');
    expect(await readlink(join(first, 'node_modules'))).toBe(saved);
    expect(await readFile(join(saved, 'a', 'index.js'), 'utf8')).toBe('original');
    const second = await project();
    expect(await cache.restoreTree(key, second, 'link')).toBe('link');
    expect(await readlink(join(second, 'node_modules'))).toBe(saved);
    expect(await readFile(join(second, 'node_modules', 'a', 'index.js'), 'utf8')).toBe('original');
  });

  it('keeps the tree of an install no lockfile decides for the run that installed it only, and copies it', async () => {
    const root = await temp();
    const runFolder = join(await temp(), 'trees');
    const cache = await openDependencyCache(root, 'repo', runFolder);
    const unlocked = await project();
    await rm(join(unlocked, 'package-lock.json'));
    const key = await cache.treeKey(unlocked, 'npm install');
    expect(key && isRunKey(key)).toBe(true);
    // npm reads no lockfile with --no-package-lock, whatever the checkout holds.
    const ignored = await cache.treeKey(await project(), 'npm install --no-audit --no-package-lock');
    expect(ignored && isRunKey(ignored)).toBe(true);
    expect(await cache.treeKey(await project(), 'npm install')).not.toMatch(/^run-/);
    // A cache opened without a run's folder keys no such tree: the install runs each time.
    expect(await (await openDependencyCache(root, 'repo')).treeKey(unlocked, 'npm install')).toBeNull();

    await mkdir(join(unlocked, 'node_modules', 'a'), { recursive: true });
    await writeFile(join(unlocked, 'node_modules', 'a', 'index.js'), 'installed');
    // Asked to link (an isolating sandbox), the cache copies it all the same.
    await cache.saveTree(key ?? '', unlocked, 'link');
    // Kept in the run's folder, never among the trees a sandbox shows and a checkout links.
    expect(existsSync(join(runFolder, key ?? '', 'node_modules', 'a', 'index.js'))).toBe(true);
    expect(await readdir(cache.trees)).toEqual([]);
    expect(cache.savedTrees()).toEqual([]);
    expect((await lstat(join(unlocked, 'node_modules'))).isSymbolicLink()).toBe(false);
    const replay = await project();
    await rm(join(replay, 'package-lock.json'));
    expect(await cache.restoreTree(key ?? '', replay, 'link')).toBe('copy');
    expect((await lstat(join(replay, 'node_modules'))).isSymbolicLink()).toBe(false);
    expect(await readFile(join(replay, 'node_modules', 'a', 'index.js'), 'utf8')).toBe('installed');
  });

  it("lives in FIXLOOP_CACHE_DIR, the App's data folder, or the user's cache folder", () => {
    expect(cacheRootFrom({ FIXLOOP_CACHE_DIR: '/c' }, '/data')).toBe('/c');
    expect(cacheRootFrom({}, '/data')).toBe('/data/cache');
    expect(cacheRootFrom({ XDG_CACHE_HOME: '/x' })).toBe('/x/fixloop');
  });
});

// CI installs bubblewrap and sets FIXLOOP_REQUIRE_BWRAP: there, this must not be skipped.
describe.runIf(bwrapWorks() || process.env.FIXLOOP_REQUIRE_BWRAP === '1')('a linked tree under bwrap', () => {
  it("is read by the checkout's commands and written by none of them", async () => {
    const cache = await openDependencyCache(await temp(), 'repo');
    const { dir: first, key } = await installed(cache, "module.exports = 'original';\n");
    await cache.saveTree(key, first, 'link');
    const checkout = await project();
    await cache.restoreTree(key, checkout, 'link');
    const bwrap = createBwrapSandbox();
    // Tools' caches (vitest's results in .vite) are written to scratch space that ends with the command.
    // A tree saved before a folder was added to them gets it when it is linked again.
    await rm(join(cache.trees, key, 'node_modules', '.vite-temp'), { recursive: true });
    await cache.restoreTree(key, checkout, 'link');
    // vite bundles a configuration file in .vite-temp before it loads it: vitest cannot start without it.
    const command =
      "node -p \"require('a')\"; echo poisoned > node_modules/a/index.js || echo refused; mkdir -p node_modules/.vite/vitest && echo '{}' > node_modules/.vite/vitest/results.json && echo cached; echo 'export default {}' > node_modules/.vite-temp/vitest.config.mjs && echo bundled";
    const shown = await withMounts(bwrap, () => savedTreeMounts(cache)).run({
      command,
      cwd: checkout,
      timeoutMs: 20_000,
    });
    expect(shown.output).toContain('original');
    expect(shown.output).toContain('refused');
    expect(shown.output).toContain('cached');
    expect(shown.output).toContain('bundled');
    expect(await readFile(join(cache.trees, key, 'node_modules', 'a', 'index.js'), 'utf8')).toBe(
      "module.exports = 'original';\n",
    );
    expect(await readdir(join(cache.trees, key, 'node_modules', '.vite'))).toEqual([]);
    // Without the trees shown, the link leads nowhere: the mount is what shows them.
    const hidden = await bwrap.run({ command: 'node -p "require(\'a\')"', cwd: checkout, timeoutMs: 20_000 });
    expect(hidden.output).toMatch(/Cannot find module 'a'/);
  });

  it("stays read-only inside the repository's cache folder, which its setup may write", async () => {
    const cache = await openDependencyCache(await temp(), 'repo');
    const checkout = await project();
    const sandbox = withMounts(createBwrapSandbox(), () => [{ path: cache.trees }]);
    const command = `echo ok > ${cache.root}/npm-entry && echo planted > ${cache.trees}/planted || echo refused`;
    const r = await sandbox.run({ command, cwd: checkout, timeoutMs: 20_000, mounts: [{ path: cache.root, writable: true }] });
    expect(r.output).toContain('refused');
    expect(existsSync(join(cache.root, 'npm-entry'))).toBe(true);
    expect(existsSync(join(cache.trees, 'planted'))).toBe(false);
  });
});
