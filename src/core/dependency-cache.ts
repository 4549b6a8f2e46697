// The dependency cache as a port (docs/design.md §1.4): what a setup command is given to reuse
// dependencies across checkouts. The gate's suite runner uses it and the workspace implements it
// (src/workspace/dependency-cache.ts), so the contract lives here, below both.

export interface DependencyCache {
  /** The repository's own cache folder: the only one its setup may write. */
  readonly root: string;
  /** Where its saved trees are: shown read-only to every command of a run that links them. */
  readonly trees: string;
  /** The node_modules folders of the saved trees that checkouts may link, as they are now (not those kept for one run). */
  savedTrees(): string[];
  /** Variables pointing the package managers at it. */
  readonly env: Record<string, string>;
  /**
   * The key of the tree `setupCommand` installs in `cwd`, or null when reusing it could skip real work.
   * A key for this run only (an install no lockfile decides) satisfies `isRunKey`.
   */
  treeKey(cwd: string, setupCommand: string): Promise<string | null>;
  /**
   * Gives `cwd` the saved tree as `how` asks (a link to it, or a copy), or a copy where the tree is
   * kept for this run only (`isRunKey`); returns how it was given, null when there is none.
   */
  restoreTree(key: string, cwd: string, how: TreeReuse): Promise<TreeReuse | null>;
  /**
   * Saves `cwd`'s node_modules under `key` (once; concurrent savers are harmless); with `link`, `cwd`
   * then links the saved tree like every later checkout.
   */
  saveTree(key: string, cwd: string, how: TreeReuse): Promise<void>;
}

/**
 * `link`: node_modules becomes a link to the saved tree, for sandboxes that show the trees read-only
 * (withReadOnlyPaths); `copy`: for a sandbox that isolates nothing, where a link would let a run
 * write the saved tree.
 */
export type TreeReuse = 'link' | 'copy';

/** How the keys of trees kept for the run that installed them only begin. */
export const RUN_KEY_PREFIX = 'run-';

/** Whether a tree key is one kept for the run that installed it only. */
export const isRunKey = (key: string): boolean => key.startsWith(RUN_KEY_PREFIX);
