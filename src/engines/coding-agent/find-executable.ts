// Resolves a program the way a shell would, but on a PATH given as a string (the app's environment,
// not necessarily this process's), and only to a regular file this process may execute.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    // stat follows symlinks: a link to an executable file counts, a link to a directory does not.
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of `name`: itself when it contains a slash (relative to `cwd`), otherwise the first
 * match in the folders of `pathValue`. Empty and relative PATH entries are skipped (they would depend
 * on the current directory). Null when nothing matches.
 */
export async function findExecutable(
  name: string,
  pathValue: string | undefined,
  cwd: string = process.cwd(),
): Promise<string | null> {
  if (!name || name.includes('\0')) return null;
  if (name.includes('/')) {
    const candidate = isAbsolute(name) ? name : resolve(cwd, name);
    return (await isExecutableFile(candidate)) ? candidate : null;
  }
  for (const dir of (pathValue ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return null;
}
