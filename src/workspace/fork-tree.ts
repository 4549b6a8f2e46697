// A copy of a set-up working tree beside it, its large installed dependency folders linked rather
// than copied: a repair engine's fork (local-workspace.ts) and the assessment's second checkout
// (assess/second-checkout.ts). A command run in the copy must be shown the linked folders
// (tool-caches.ts, linkedFolderMounts), read-only where they are package trees.
import { cp, lstat, readlink, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { prepareToolCaches } from './tool-caches.ts';

/** Large installed dependency folders are linked into forks, not copied. */
export const LINKED_IN_FORKS = new Set(['node_modules', '.venv', 'venv']);

/** Copies `root` to `target`, linking the folders of `linkedNames` found at its top; returns the folders linked. */
export async function forkTree(
  root: string,
  target: string,
  linkedNames: ReadonlySet<string> = LINKED_IN_FORKS,
): Promise<string[]> {
  await cp(root, target, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => !linkedNames.has(relative(root, source)),
  });
  const linked: string[] = [];
  for (const name of linkedNames) {
    const stat = await lstat(join(root, name)).catch(() => null);
    // Already a link (a saved dependency tree the sandbox shows read-only): the fork links the same.
    if (stat?.isSymbolicLink()) await symlink(await readlink(join(root, name)), join(target, name));
    if (!stat?.isDirectory()) continue;
    if (name === 'node_modules') await prepareToolCaches(join(root, name));
    await symlink(join(root, name), join(target, name));
    linked.push(join(root, name));
  }
  return linked;
}
