// pyenv's shims are bash scripts that run `<root>/libexec/pyenv exec <program>`, which picks a Python
// (PYENV_VERSION, else a .python-version file, else the root's `version` file) and runs the program
// from `<root>/versions/<v>/bin`. To run them in a sandbox, the root (shims, libexec, hooks, versions)
// must be visible and the variables that select the version passed; this file finds both, and which
// interpreter the shim runs, for the report.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readHead } from './file-head.ts';

/** The pyenv root a shim script belongs to, or null when `file` is not a pyenv shim. */
export function pyenvRootOfShim(file: string): string | null {
  const head = readHead(file, 2048);
  if (!head.startsWith('#!')) return null;
  const exec = /exec "([^"]+)\/libexec\/pyenv" exec /.exec(head);
  return exec?.[1] ?? null;
}

/** The .python-version pyenv would read from `dir` upwards, or null. */
function localVersionFile(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    const file = join(d, '.python-version');
    if (existsSync(file)) return file;
    if (dirname(d) === d) return null;
  }
}

function readVersionFile(file: string): string[] {
  try {
    return readFileSync(file, 'utf8')
      .split(/\s+/)
      .map((v) => v.trim())
      .filter((v) => v && !v.startsWith('#') && !v.includes('..'));
  } catch {
    return [];
  }
}

/** The version names pyenv selects, in order (`system` included when selected). */
export function pyenvSelectedVersions(root: string, env: NodeJS.ProcessEnv, cwd: string): string[] {
  if (env.PYENV_VERSION) return env.PYENV_VERSION.split(':').filter(Boolean);
  const file = (env.PYENV_DIR ? localVersionFile(env.PYENV_DIR) : null) ?? localVersionFile(cwd) ?? join(root, 'version');
  const versions = readVersionFile(file);
  return versions.length > 0 ? versions : ['system'];
}

/** The installed version a selected name stands for (`3.11` → the latest 3.11.x), as pyenv resolves it. */
export function pyenvInstalledVersion(root: string, name: string): string | null {
  const plain = name.replace(/^python-/, '');
  for (const candidate of [name, plain]) if (existsSync(join(root, 'versions', candidate))) return candidate;
  let installed: string[];
  try {
    installed = readdirSync(join(root, 'versions'));
  } catch {
    return null;
  }
  const numeric = (v: string) => v.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  const matching = installed.filter((v) => v.startsWith(`${plain}.`) && /^[\d.]+$/.test(v));
  matching.sort((a, b) => {
    const [x, y] = [numeric(a), numeric(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
    return 0;
  });
  return matching[0] ?? null;
}

/** The variables that make pyenv in the sandbox select what it selects here. */
export function pyenvEnvironment(root: string, env: NodeJS.ProcessEnv): Record<string, string> {
  return { PYENV_ROOT: root, ...(env.PYENV_VERSION ? { PYENV_VERSION: env.PYENV_VERSION } : {}) };
}
