// A command's PATH with pyenv's choice made ahead of its shims. A shim is a bash script that starts
// `pyenv exec`, which picks the version (PYENV_VERSION, a .python-version from the command's folder
// up, the root's `version` file), puts that version's bin/ first on PATH and runs the program from
// it: about twenty bash processes before Python starts (~0.35 s here, seconds under load), paid by
// every python, pytest and pip a repository's commands start. The sandbox makes the same choice once
// per command and puts the chosen versions' bin/ folders in front of the shims, so the same programs
// run with the same PATH in front, without the detour. A program none of them holds still reaches its
// shim; `system` (pyenv's fall-through to the PATH after its own folders) and a selected version that
// is not installed are left to the shim.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pyenvInstalledVersion, pyenvSelectedVersions } from './pyenv.ts';

/** `path` with the bin/ folders of the versions pyenv would select in `cwd` before each pyenv shims folder on it. */
export function pathPastPyenvShims(path: string, env: Readonly<Record<string, string | undefined>>, cwd: string): string {
  const entries = path.split(delimiter);
  const out: string[] = [];
  for (const entry of entries) {
    const root = pyenvRootOfShimsFolder(entry);
    if (root) for (const bin of selectedBins(root, env, cwd)) if (!out.includes(bin)) out.push(bin);
    out.push(entry);
  }
  return out.join(delimiter);
}

/** The pyenv root whose shims folder `dir` is, or null. */
function pyenvRootOfShimsFolder(dir: string): string | null {
  if (!dir.endsWith('/shims')) return null;
  const root = dir.slice(0, -'/shims'.length);
  return existsSync(join(root, 'libexec', 'pyenv')) ? root : null;
}

function selectedBins(root: string, env: Readonly<Record<string, string | undefined>>, cwd: string): string[] {
  const bins: string[] = [];
  for (const version of pyenvSelectedVersions(root, env as NodeJS.ProcessEnv, cwd)) {
    if (version === 'system') break; // the PATH past pyenv's folders decides from here: the shim does it
    const installed = pyenvInstalledVersion(root, version);
    const bin = installed ? join(root, 'versions', installed, 'bin') : null;
    // A selected version that is not installed is the shim's to handle (an error, or the system Python in pyenv 2.6).
    if (!bin || !existsSync(bin)) return [];
    bins.push(bin);
  }
  return bins;
}
