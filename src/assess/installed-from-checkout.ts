// Dependencies installed from the checkout itself: a workspace's packages, a `file:` dependency, each
// linked under node_modules to its folder in the repository. Users get them from their own install
// of those packages, not from the package being looked at, so the look from outside the runner keeps
// them where the links lead (unshipped-files.ts), whatever the package's own file list says.
import { access, lstat, readdir, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The folders (relative, `/`-separated) of the checkout at `dir` that node_modules links to. */
export async function installedFromCheckout(dir: string): Promise<string[]> {
  const root = await realpath(dir).catch(() => dir);
  const modules = join(dir, 'node_modules');
  const entries = await readdir(modules).catch(() => [] as string[]);
  const names = (
    await Promise.all(
      entries.map(async (name) =>
        name.startsWith('@')
          ? (await readdir(join(modules, name)).catch(() => [] as string[])).map((inner) => `${name}/${inner}`)
          : [name],
      ),
    )
  ).flat();
  const folders: string[] = [];
  for (const name of names) {
    const link = join(modules, name);
    const isLink = await lstat(link).then(
      (stats) => stats.isSymbolicLink(),
      () => false,
    );
    // Read as npm wrote it, from where the checkout has it: node_modules may itself be a link to a
    // saved tree (dependency-cache.ts), from which `../packages/x` would lead elsewhere.
    const written = isLink ? await readlink(link).catch(() => null) : null;
    if (written === null) continue;
    const target = isAbsolute(written) ? written : resolve(dirname(join(root, 'node_modules', name)), written);
    const inside = relative(root, target);
    const there = await access(target).then(
      () => true,
      () => false,
    );
    if (there && inside && !inside.startsWith('..') && !isAbsolute(inside)) folders.push(inside.split(sep).join('/'));
  }
  return folders;
}

/** Whether `path` is one of `folders` or inside one. */
export function insideAny(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => path === folder || path.startsWith(`${folder}/`));
}
