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
import { dirname, join, resolve } from 'node:path';
import { isUnder } from '../sandbox/bind-guard.ts';
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
 * `workspace:` kinds, and a bare folder path (`"."`, `"./tools"`, `"../x"`, `"~/x"`, `"/x"`).
 */
const CHECKOUT_LINKS = /^(?:(?:file|link|workspace):|\.\.?(?:\/|$)|~\/|\/)/;
/** A package that depends on itself, to require its own name in its tests: `"name": "."`. */
const ITSELF = /^(?:file:)?\.\/?$/;

/**
 * Where an install links packages of the checkout into node_modules. A saved tree holds such links
 * relative to the checkout: one linked from the cache leads them into the cache, where nothing is; a
 * copy leads them to its own checkout, which is right for the checkout itself (`itself`) but not for
 * another folder, whose own node_modules the saved tree does not hold (`elsewhere`: workspaces too).
 */
type CheckoutLinks = 'none' | 'itself' | 'elsewhere';

function checkoutLinks(manifest: Record<string, unknown>): CheckoutLinks {
  if (manifest['workspaces'] !== undefined) return 'elsewhere';
  const specs = ['dependencies', 'devDependencies', 'optionalDependencies'].flatMap((field) => {
    const named = manifest[field];
    return typeof named === 'object' && named !== null ? Object.values(named) : [];
  });
  const linked = specs.filter((spec): spec is string => typeof spec === 'string' && CHECKOUT_LINKS.test(spec));
  if (linked.length === 0) return 'none';
  return linked.every((spec) => ITSELF.test(spec)) ? 'itself' : 'elsewhere';
}

/**
 * The same read from an installed tree, however the manifest named the packages: its links that
 * lead out of it, to the checkout that holds it or elsewhere. Its packages and scoped packages are
 * looked at, where npm puts them.
 */
async function linksOutOf(tree: string): Promise<CheckoutLinks> {
  const entries = async (dir: string) => readdir(dir, { withFileTypes: true }).catch(() => []);
  let found: CheckoutLinks = 'none';
  for (const entry of await entries(tree)) {
    const path = join(tree, entry.name);
    const inScope = entry.isDirectory() && entry.name.startsWith('@') ? (await entries(path)).map((e) => join(path, e.name)) : [];
    for (const candidate of [path, ...inScope]) {
      const target = await readlink(candidate).catch(() => null);
      const to = target === null ? null : resolve(dirname(candidate), target);
      if (to === null || isUnder(to, tree)) continue;
      if (to !== dirname(tree)) return 'elsewhere';
      found = 'itself';
    }
  }
  return found;
}

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
    if (how === 'link') {
      // A tree saved by an earlier fixloop may lack a tool cache folder added since: the sandbox can
      // mount scratch space only on one that exists.
      await prepareToolCaches(saved);
      await symlink(saved, join(cwd, 'node_modules'));
    } else await cp(saved, join(cwd, 'node_modules'), { recursive: true, verbatimSymlinks: true });
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
      const links = checkoutLinks(parsed);
      if (INSTALL_SCRIPTS.some((name) => name in scripts) || links === 'elsewhere') return null;
      const platform = [process.version, process.platform, process.arch];
      // A lockfile's tree may be linked: none that links the checkout in.
      if (lockfile !== null && !IGNORES_LOCKFILE.test(` ${setupCommand}`))
        return links === 'none' ? digest(setupCommand.trim(), manifest, lockfile, ...platform) : null;
      return runTrees ? RUN_KEY_PREFIX + digest(setupCommand.trim(), manifest, ...platform) : null;
    },
    restoreTree,
    async saveTree(key, cwd, asked) {
      const how = given(key, asked);
      const installed = join(cwd, 'node_modules');
      // Links the manifest did not show (treeKey): the checkout keeps its own tree, nothing is saved.
      const links = await linksOutOf(installed);
      if (links === 'elsewhere' || (links === 'itself' && how === 'link')) return;
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
