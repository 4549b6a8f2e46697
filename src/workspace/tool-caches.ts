// Folders inside node_modules that tools write while tests run: each runner's own (its caches, its
// bundler's temporary files: TestRunner.nodeModulesScratch), and `.cache`, the find-cache-dir
// convention of babel, nyc, ava and others. A package tree shown read-only (a linked saved tree, a
// fork's linked node_modules) gets these as empty scratch folders, written by a command and gone
// when it ends, so nothing a run executes can change the tree itself.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { RUNNER_SCRATCH_FOLDERS } from '../runners/registry.ts';

export const TOOL_CACHE_DIRS: readonly string[] = [...RUNNER_SCRATCH_FOLDERS, '.cache'];

/** Makes the tool cache folders of a node_modules tree, so a sandbox can mount scratch space on them. */
export async function prepareToolCaches(nodeModules: string): Promise<void> {
  await Promise.all(TOOL_CACHE_DIRS.map((dir) => mkdir(join(nodeModules, dir), { recursive: true })));
}

/**
 * How a command sees a package tree it may read but not write: the tree read-only, and its tool
 * cache folders (those that exist: a mount point cannot be made in a read-only tree) as scratch.
 */
export function readOnlyTreeMounts(nodeModules: string): Array<{ path: string; scratch?: true }> {
  const scratch = TOOL_CACHE_DIRS.map((dir) => join(nodeModules, dir)).filter((path) => existsSync(path));
  return [{ path: nodeModules }, ...scratch.map((path) => ({ path, scratch: true as const }))];
}

/** The mounts that show a workspace's linked folders to a command: node_modules trees read-only with scratch caches, the rest as they are. */
export function linkedFolderMounts(linkedFolders: readonly string[]): Array<{ path: string; scratch?: true }> {
  return linkedFolders.flatMap((path) => (basename(path) === 'node_modules' ? readOnlyTreeMounts(path) : [{ path }]));
}
