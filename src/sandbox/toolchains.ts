// Which host folders a sandboxed command needs to run the programs it names as the operator's shell
// would: each program is looked up on the server's PATH (its order kept) and followed through
// symlinks, pyenv shims, a virtualenv's pyvenv.cfg and shebangs to the prefix it really lives in
// (a pyenv root, a venv and its base Python, an nvm version, /opt/node). Those prefixes are shown
// read-only, never more: bind-guard.ts refuses a home as a whole, fixloop's own files and folders that
// hold credentials. Pure apart from reading the file system.
import { accessSync, constants, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import { isSystemPath, isUnder, refusal, type BindGuard } from './bind-guard.ts';
import { readHead } from './file-head.ts';
import { commandPrograms } from './command-words.ts';
import { pyenvEnvironment, pyenvInstalledVersion, pyenvRootOfShim, pyenvSelectedVersions } from './pyenv.ts';

/** Looked for on PATH whatever the commands say: the interpreters and runners setups and tests call indirectly. */
// The sandbox sits below the runners' registry and cannot ask it: a runner's program that setups
// call indirectly (a tox or make target) is listed here by name, as the interpreters are.
// eslint-disable-next-line no-restricted-syntax
export const STANDARD_PROGRAMS = ['node', 'npm', 'npx', 'python3', 'python', 'pip', 'pip3', 'pnpm', 'yarn', 'pytest'];

export interface Toolchain {
  /** The program as commands name it: `python3`. */
  name: string;
  /** Where the PATH finds it: `/root/.pyenv/shims/python3`. */
  executable: string;
  /** The file that finally runs: `/root/.pyenv/versions/3.11.7/bin/python3.11`. */
  realPath: string;
  /** The real prefix it comes from: `/root/.pyenv/versions/3.11.7`, a venv, `/usr`. */
  prefix: string;
  kind: 'system' | 'pyenv' | 'virtualenv' | 'nvm' | 'prefix';
  /** Host folders shown read-only for it (none for the system's own). */
  dirs: string[];
  /** Symlinks recreated inside: a PATH entry whose folder is not shown, linking into one that is. */
  links: Array<{ path: string; target: string }>;
  /** Variables it needs inside (PYENV_ROOT, PYENV_VERSION, VIRTUAL_ENV). */
  env: Record<string, string>;
  /** Folders it would need that may not be shown, and why. */
  refused: Array<{ path: string; reason: string }>;
}

export interface ToolchainHost {
  /** The PATH the sandbox's is derived from, in its order. */
  path: string;
  env: NodeJS.ProcessEnv;
  guard: BindGuard;
  /** Where pyenv looks for a .python-version when resolving here (default: the process's). */
  cwd?: string;
}

interface Need {
  path: string;
  /** Shown instead when `path` is refused (a prefix's bin folder). */
  fallback?: string;
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first executable file called `name` on `path`, in its order, or null. */
export function which(name: string, path: string): string | null {
  for (const dir of path.split(delimiter)) if (isAbsolute(dir) && isExecutableFile(join(dir, name))) return join(dir, name);
  return null;
}

/** `/x/bin/prog` → `/x` (a prefix with lib/, share/ beside bin/); elsewhere the file's folder. */
function binPrefix(file: string): string {
  const dir = dirname(file);
  return basename(dir) === 'bin' || basename(dir) === 'sbin' ? dirname(dir) : dir;
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The virtualenv `file` is the bin/ entry of (a pyvenv.cfg beside bin/), or null. */
function venvOf(file: string): string | null {
  if (basename(dirname(file)) !== 'bin') return null;
  const venv = dirname(dirname(file));
  try {
    statSync(join(venv, 'pyvenv.cfg'));
    return venv;
  } catch {
    return null;
  }
}

/** The base interpreter's folder a venv was made from (`home` in pyvenv.cfg). */
function venvHome(venv: string): string | null {
  try {
    const home = /^\s*home\s*=\s*(.+?)\s*$/m.exec(readFileSync(join(venv, 'pyvenv.cfg'), 'utf8'))?.[1];
    return home && isAbsolute(home) ? home : null;
  } catch {
    return null;
  }
}

/** An absolute interpreter named by a script's `#!` line (not /usr/bin/env), or null. */
function shebangInterpreter(file: string): string | null {
  const interpreter = /^#!\s*(\/\S+)/.exec(readHead(file, 256))?.[1];
  return interpreter && !isSystemPath(interpreter) ? interpreter : null;
}

/** The folders one file needs: its virtualenv and the venv's base, or the prefix it lives in. */
function footprint(file: string): { needs: Need[]; real: string; venv: string | null } {
  const real = realpathSync(file);
  const venv = venvOf(file) ?? venvOf(real);
  const needs: Need[] = [];
  if (venv) {
    needs.push({ path: venv });
    const home = venvHome(venv);
    if (home) needs.push({ path: binPrefix(join(home, 'python')), fallback: home });
  } else if (!isSymlink(file) || isUnder(real, binPrefix(file))) {
    needs.push({ path: binPrefix(file), fallback: dirname(file) });
  }
  needs.push({ path: binPrefix(real), fallback: dirname(real) });
  return { needs, real, venv };
}

/** Needs → folders to show (outermost only, the system left out) and the refused ones. */
function settle(needs: Need[], guard: BindGuard): Pick<Toolchain, 'dirs' | 'refused'> {
  const dirs: string[] = [];
  const refused: Toolchain['refused'] = [];
  const take = (path: string): string | null => {
    if (isSystemPath(path) || dirs.some((d) => isUnder(path, d))) return null;
    const reason = refusal(path, guard);
    if (reason === null) dirs.push(path);
    return reason;
  };
  const seen = new Set<string>();
  for (const need of needs) {
    if (seen.has(need.path)) continue;
    seen.add(need.path);
    const reason = take(need.path);
    if (reason === null) continue;
    refused.push({ path: need.path, reason });
    if (!need.fallback || need.fallback === need.path) continue;
    const again = take(need.fallback);
    if (again !== null) refused.push({ path: need.fallback, reason: again });
  }
  return { dirs: dirs.filter((d) => !dirs.some((o) => o !== d && isUnder(d, o))), refused };
}

function visible(path: string, dirs: string[]): boolean {
  return isSystemPath(path) || dirs.some((d) => isUnder(path, d));
}

function resolvePyenv(name: string, executable: string, root: string, host: ToolchainHost): Toolchain {
  const needs: Need[] = [{ path: root }];
  let realPath = executable;
  let prefix = root;
  // The system Python pyenv falls back to is the next one on PATH after pyenv's own folders.
  const withoutPyenv = host.path
    .split(delimiter)
    .filter((d) => !isUnder(d, root))
    .join(delimiter);
  for (const version of pyenvSelectedVersions(root, host.env, host.cwd ?? process.cwd())) {
    const installed = version === 'system' ? null : pyenvInstalledVersion(root, version);
    const file =
      version === 'system' ? which(name, withoutPyenv) : installed ? join(root, 'versions', installed, 'bin', name) : null;
    if (!file || !isExecutableFile(file)) continue;
    const found = footprint(file);
    needs.push(...found.needs);
    realPath = found.real;
    prefix = found.venv ?? binPrefix(file);
    break;
  }
  return {
    name,
    executable,
    realPath,
    prefix,
    kind: 'pyenv',
    ...settle(needs, host.guard),
    links: [],
    env: pyenvEnvironment(root, host.env),
  };
}

function resolveFile(name: string, executable: string, host: ToolchainHost): Toolchain {
  const found = footprint(executable);
  const needs = [...found.needs];
  const interpreter = shebangInterpreter(found.real);
  if (interpreter) {
    try {
      needs.push(...footprint(interpreter).needs);
    } catch {
      // A script whose interpreter is missing fails the same way inside.
    }
  }
  const { dirs, refused } = settle(needs, host.guard);
  const links =
    isSymlink(executable) && !visible(dirname(executable), dirs) && visible(found.real, dirs)
      ? [{ path: executable, target: found.real }]
      : [];
  // The prefix shown that holds what runs (nvm's version folder for its npm), else the file's own.
  const prefix = found.venv ?? dirs.find((d) => isUnder(found.real, d)) ?? binPrefix(found.real);
  const kind: Toolchain['kind'] = found.venv
    ? 'virtualenv'
    : dirs.length === 0 && refused.length === 0
      ? 'system'
      : /\/versions\/node\/[^/]+$/.test(prefix)
        ? 'nvm'
        : 'prefix';
  // An activated venv (its bin/ on PATH) is announced as activation does; a venv reached through a
  // link (pipx's tools) is not, or tools that honour VIRTUAL_ENV would use it for the repository.
  const env: Record<string, string> =
    found.venv && dirname(executable) === join(found.venv, 'bin') ? { VIRTUAL_ENV: found.venv } : {};
  return { name, executable, realPath: found.real, prefix, kind, dirs, links, env, refused };
}

/** How `name` runs when looked up on the host's PATH, or null when the PATH has no such program. */
export function resolveToolchain(name: string, host: ToolchainHost): Toolchain | null {
  const executable = which(name, host.path);
  if (!executable) return null;
  const root = pyenvRootOfShim(executable);
  try {
    return root ? resolvePyenv(name, executable, root, host) : resolveFile(name, executable, host);
  } catch {
    // Vanished or unreadable while being followed: nothing to show for it.
    return null;
  }
}

/**
 * The file to start for `name` as the PATH finds it, a pyenv shim followed to the interpreter it would
 * start (its version selection read, pyenv not started); null when the PATH has no such program.
 */
export function fileToStart(name: string, host: ToolchainHost): string | null {
  const found = resolveToolchain(name, host);
  return found ? (found.kind === 'pyenv' ? found.realPath : found.executable) : null;
}

/** The program names to resolve for these command lines: theirs, then the standard ones. */
export function programsOf(commands: string[]): string[] {
  return [...new Set([...commands.flatMap((c) => commandPrograms(c)), ...STANDARD_PROGRAMS])];
}

/** Every toolchain the commands (and the standard interpreters) resolve on the host's PATH. */
export function resolveToolchains(commands: string[], host: ToolchainHost): Toolchain[] {
  return programsOf(commands)
    .map((name) => resolveToolchain(name, host))
    .filter((t): t is Toolchain => t !== null);
}
