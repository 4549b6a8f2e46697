// Where fixloop keeps its records. The App (`serve`, `worker`) keeps its run store in
// FIXLOOP_DATA_DIR, by default `.fixloop` in the folder it starts in (docs/github-app.md). The
// command line keeps its runs and its daily spend in the same FIXLOOP_DATA_DIR when it is set, else
// in the user's data folder (XDG: `$XDG_DATA_HOME/fixloop`, `~/.local/share/fixloop`): never in the
// repository it was run from, which the README promises to leave alone. Its caches (dependencies,
// the operator's tool answers, Node's compile cache) go to the user's cache folder.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export function appDataDir(env: NodeJS.ProcessEnv, cwd = process.cwd()): string {
  return resolve(cwd, env.FIXLOOP_DATA_DIR ?? '.fixloop');
}

export function userDataDir(env: NodeJS.ProcessEnv, cwd = process.cwd()): string {
  if (env.FIXLOOP_DATA_DIR) return resolve(cwd, env.FIXLOOP_DATA_DIR);
  // The XDG spec: a relative XDG_DATA_HOME is invalid and ignored.
  const dataHome =
    env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME)
      ? env.XDG_DATA_HOME
      : join(env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir(), '.local', 'share');
  return join(dataHome, 'fixloop');
}

/** The cache root: FIXLOOP_CACHE_DIR, else the App's data folder, else the user's cache folder. */
export function cacheRootFrom(env: NodeJS.ProcessEnv, dataDir?: string): string {
  if (env.FIXLOOP_CACHE_DIR) return env.FIXLOOP_CACHE_DIR;
  if (dataDir) return join(dataDir, 'cache');
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'fixloop');
}
