// Dependencies reused across checkouts (docs/design.md §1.4): a package cache owned by fixloop, one per
// repository, given to its setup commands (npm's and pip's caches), and the installed node_modules
// tree of a lockfile, saved right after a setup that installed it and given to the next checkout
// with the same lockfile: the replay of the same run, and later runs. An install that no lockfile
// decides (none committed, or `--no-package-lock`) resolves against the registry as it is that day,
// so its tree is reused only within the run that installed it (the replay, the assessment's
// checkouts), kept in the run's own folder, which no command is shown, and gone with it; each
// checkout gets a copy, never a link: linked, the packages' real paths lie outside the checkout, and
// a real project's suite that resolves them against it failed 4 tests on its upstream fix. Under an
// isolating sandbox the checkout's node_modules is a link to a lockfile's saved tree, which every
// command sees read-only (a copy of a large tree cost as much as installing it); without isolation
// it is copied, so nothing a run executes can write what a later run or the replay loads. One
// repository's code can write only its own cache folder, so it never writes what another
// repository's run executes.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isRunKey, RUN_KEY_PREFIX, type DependencyCache, type TreeReuse } from '../core/dependency-cache.ts';
import { prepareToolCaches, readOnlyTreeMounts } from './tool-caches.ts';

/** Install commands whose whole effect, for a project without install scripts, is node_modules. */
const PLAIN_INSTALLS =
  /^\s*npm\s+(ci|install|i)(\s+--(no-audit|no-fund|ignore-scripts|prefer-offline|silent|quiet|no-package-lock))*\s*$/;
/** An install that reads no lockfile, whatever the checkout holds. */
const IGNORES_LOCKFILE = /\s--no-package-lock\b/;
/** Lifecycle scripts that make an install do more than fill node_modules (a build, a generated file). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

/**
 * Dependency specs that npm installs as a link into the checkout itself: the `file:`, `link:` and
 * `workspace:` kinds, and a bare folder path (`"."`, `"./tools"`, `"../x"`, `"~/x"`, `"/x"`): a
 * package that depends on itself as `"."` to require its own name in its tests.
 */
const CHECKOUT_LINKS = /^(?:(?:file|link|workspace):|\.\.?(?:\/|$)|~\/|\/)/;

/**
 * Whether the install links packages of the checkout into node_modules (workspaces, `file:` and
 * `link:` dependencies): a saved tree holds those links relative to a checkout, and one restored by a
 * link to it would lead them into the cache instead, where nothing is. Such trees are not saved.
 */
function linksIntoCheckout(manifest: Record<string, unknown>): boolean {
  if (manifest['workspaces'] !== undefined) return true;
  return ['dependencies', 'devDependencies', 'optionalDependencies'].some((field) => {
    const specs = manifest[field];
    return (
      typeof specs === 'object' &&
      specs !== null &&
      Object.values(specs).some((spec) => typeof spec === 'string' && CHECKOUT_LINKS.test(spec))
    );
  });
}

/**
 * Whether an installed tree holds a link that leads out of it (a package of the checkout, however
 * the manifest named it): npm writes such links relative to the checkout, so a tree restored
 * anywhere else, or linked from the cache, would lead them where nothing is. Its packages and scoped
 * packages are looked at, where npm puts them.
 */
async function leavesTree(tree: string): Promise<boolean> {
  const entries = async (dir: string) => readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of await entries(tree)) {
    const path = join(tree, entry.name);
    const inScope = entry.isDirectory() && entry.name.startsWith('@') ? (await entries(path)).map((e) => join(path, e.name)) : [];
    for (const candidate of [path, ...inScope]) {
      const target = await readlink(candidate).catch(() => null);
      if (target !== null && !isInside(tree, resolve(dirname(candidate), target))) return true;
    }
  }
  return false;
}

const isInside = (folder: string, path: string) => {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex');

/**
 * `runTrees`: the run's own folder for the trees of installs no lockfile decides, removed when the run
 * ends; without it, such installs get no key and run every time.
 */
export async function openDependencyCache(cacheRoot: string, repositoryKey: string, runTrees?: string): Promise<DependencyCache> {
  const root = join(cacheRoot, 'repositories', digest(repositoryKey).slice(0, 24));
  const trees = join(root, 'trees');
  await mkdir(trees, { recursive: true });
  if (runTrees) await mkdir(runTrees, { recursive: true });
  const treeDir = (key: string) => (isRunKey(key) && runTrees ? join(runTrees, key) : join(trees, key));
  // A run's own tree is shown to no command, so it is only ever copied (above).
  const given = (key: string, how: TreeReuse): TreeReuse => (isRunKey(key) ? 'copy' : how);
  const restoreTree = async (key: string, cwd: string, asked: TreeReuse): Promise<TreeReuse | null> => {
    const saved = join(treeDir(key), 'node_modules');
    if (!existsSync(saved)) return null;
    const how = given(key, asked);
    await rm(join(cwd, 'node_modules'), { recursive: true, force: true });
    if (how === 'link') await symlink(saved, join(cwd, 'node_modules'));
    else await cp(saved, join(cwd, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    return how;
  };
  return {
    root,
    trees,
    savedTrees: () =>
      readdirSync(trees, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
        .map((entry) => join(trees, entry.name, 'node_modules'))
        .filter((path) => existsSync(path)),
    env: { npm_config_cache: join(root, 'npm'), PIP_CACHE_DIR: join(root, 'pip') },
    async treeKey(cwd, setupCommand) {
      if (!PLAIN_INSTALLS.test(setupCommand)) return null;
      const manifest = await readFile(join(cwd, 'package.json'), 'utf8').catch(() => null);
      const lockfile = await readFile(join(cwd, 'package-lock.json'), 'utf8').catch(() => null);
      if (manifest === null) return null;
      const parsed = JSON.parse(manifest) as Record<string, unknown> & { scripts?: Record<string, string> };
      const scripts = parsed.scripts ?? {};
      if (INSTALL_SCRIPTS.some((name) => name in scripts) || linksIntoCheckout(parsed)) return null;
      const platform = [process.version, process.platform, process.arch];
      if (lockfile !== null && !IGNORES_LOCKFILE.test(` ${setupCommand}`))
        return digest(setupCommand.trim(), manifest, lockfile, ...platform);
      return runTrees ? RUN_KEY_PREFIX + digest(setupCommand.trim(), manifest, ...platform) : null;
    },
    restoreTree,
    async saveTree(key, cwd, asked) {
      const how = given(key, asked);
      const installed = join(cwd, 'node_modules');
      // A link the manifest did not show (treeKey): the checkout keeps its own tree, nothing is saved.
      if (await leavesTree(installed)) return;
      if (!existsSync(treeDir(key)) && existsSync(installed)) {
        const staging = join(dirname(treeDir(key)), `.staging-${randomBytes(4).toString('hex')}`);
        try {
          await mkdir(staging);
          // A tree that `cwd` will link anyway is moved, not copied (a copy of 200 MB of small files
          // took as long as the install); across file systems, or for `copy`, it is copied.
          const moved =
            how === 'link' &&
            (await rename(installed, join(staging, 'node_modules')).then(
              () => true,
              () => false,
            ));
          if (!moved) await cp(installed, join(staging, 'node_modules'), { recursive: true, verbatimSymlinks: true });
          await prepareToolCaches(join(staging, 'node_modules'));
          const published = await rename(staging, treeDir(key)).then(
            () => true,
            () => false,
          );
          // Not published and no other run's tree in its place: the checkout keeps its own.
          if (!published && !existsSync(treeDir(key)) && moved) await rename(join(staging, 'node_modules'), installed);
        } finally {
          await rm(staging, { recursive: true, force: true });
        }
      }
      if (how === 'link' && existsSync(join(treeDir(key), 'node_modules'))) await restoreTree(key, cwd, 'link');
    },
  };
}

/** What a sandbox that links saved trees must show, read-only: their folder, and each tree with its tools' scratch caches. */
export function savedTreeMounts(cache: DependencyCache): Array<{ path: string; scratch?: true }> {
  return [{ path: cache.trees }, ...cache.savedTrees().flatMap(readOnlyTreeMounts)];
}
