// Dependencies reused across checkouts (DESIGN.md §1.4): a package cache owned by fixloop, one per
// repository, given to its setup commands (npm's and pip's caches), and the installed node_modules
// tree of a lockfile, saved right after a setup that installed it and copied (never linked) into
// the next checkout with the same lockfile: the replay of the same run, and later runs. One
// repository's code can write only its own cache folder, so it never writes what another
// repository's run executes.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface DependencyCache {
  /** The repository's own cache folder: the only one its setup may write. */
  readonly root: string;
  /** Variables pointing the package managers at it. */
  readonly env: Record<string, string>;
  /** The key of the tree `setupCommand` installs in `cwd`, or null when reusing it could skip real work. */
  treeKey(cwd: string, setupCommand: string): Promise<string | null>;
  /** Copies a saved tree into `cwd`; false when there is none. */
  restoreTree(key: string, cwd: string): Promise<boolean>;
  /** Saves `cwd`'s node_modules under `key` (once; concurrent savers are harmless). */
  saveTree(key: string, cwd: string): Promise<void>;
}

/** Install commands whose whole effect, for a project without install scripts, is node_modules. */
const PLAIN_INSTALLS = /^\s*npm\s+(ci|install|i)(\s+--(no-audit|no-fund|ignore-scripts|prefer-offline|silent|quiet))*\s*$/;
/** Lifecycle scripts that make an install do more than fill node_modules (a build, a generated file). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

/** The cache root: FIXLOOP_CACHE_DIR, else the App's data folder, else the user's cache folder. */
export function cacheRootFrom(env: NodeJS.ProcessEnv, dataDir?: string): string {
  if (env.FIXLOOP_CACHE_DIR) return env.FIXLOOP_CACHE_DIR;
  if (dataDir) return join(dataDir, 'cache');
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'fixloop');
}

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex');

export async function openDependencyCache(cacheRoot: string, repositoryKey: string): Promise<DependencyCache> {
  const root = join(cacheRoot, 'repositories', digest(repositoryKey).slice(0, 24));
  await mkdir(join(root, 'trees'), { recursive: true });
  const treeDir = (key: string) => join(root, 'trees', key);
  return {
    root,
    env: { npm_config_cache: join(root, 'npm'), PIP_CACHE_DIR: join(root, 'pip') },
    async treeKey(cwd, setupCommand) {
      if (!PLAIN_INSTALLS.test(setupCommand)) return null;
      const manifest = await readFile(join(cwd, 'package.json'), 'utf8').catch(() => null);
      const lockfile = await readFile(join(cwd, 'package-lock.json'), 'utf8').catch(() => null);
      if (manifest === null || lockfile === null) return null;
      const scripts = (JSON.parse(manifest) as { scripts?: Record<string, string> }).scripts ?? {};
      if (INSTALL_SCRIPTS.some((name) => name in scripts)) return null;
      return digest(setupCommand.trim(), manifest, lockfile, process.version, process.platform, process.arch);
    },
    async restoreTree(key, cwd) {
      const saved = join(treeDir(key), 'node_modules');
      if (!existsSync(saved)) return false;
      await rm(join(cwd, 'node_modules'), { recursive: true, force: true });
      await cp(saved, join(cwd, 'node_modules'), { recursive: true, verbatimSymlinks: true });
      return true;
    },
    async saveTree(key, cwd) {
      if (existsSync(treeDir(key)) || !existsSync(join(cwd, 'node_modules'))) return;
      const staging = join(root, 'trees', `.staging-${randomBytes(4).toString('hex')}`);
      try {
        await cp(join(cwd, 'node_modules'), join(staging, 'node_modules'), { recursive: true, verbatimSymlinks: true });
        await rename(staging, treeDir(key)).catch(() => undefined); // another run saved it first
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    },
  };
}
