// The workspace port: an ephemeral clone of the target repository. The only way fixloop code
// writes files of the target repository is through this API (docs/design.md §1.3).
import type { FileChange } from '../core/file-change.ts';
import type { PathPolicy } from './path-policy.ts';

/** An opaque saved state of the working tree, restorable with `restore`. */
export interface Snapshot {
  readonly id: string;
  /** Files that differ from the baseline in this snapshot, with their content (null = deleted). */
  readonly files: ReadonlyMap<string, Buffer | null>;
}

export interface Workspace {
  /** Absolute path of the working tree. */
  readonly root: string;
  /** Commit SHA the workspace was cloned at. */
  readonly baseSha: string;
  readFile(path: string): Promise<string>;
  /** Writes through the path policy: throws PathPolicyError for a refused path. */
  writeFile(path: string, content: string): Promise<void>;
  deleteFile(path: string): Promise<void>;
  /** Repository files (not ignored, not .git), sorted, POSIX paths. */
  listFiles(): Promise<string[]>;
  /** Changes of the working tree against the baseline commit. */
  changes(): Promise<FileChange[]>;
  /** Unified diff of the working tree against the baseline, applicable with `git apply`; '' when unchanged. */
  diff(): Promise<string>;
  /** Records the untracked files present now (made by setup or a test run) so they are never taken for changes. */
  markEnvironment(): Promise<void>;
  snapshot(): Promise<Snapshot>;
  /** Makes the working tree equal to the snapshot (other changes reverted). */
  restore(snapshot: Snapshot): Promise<void>;
  /**
   * The same working tree, writing through another path policy: the red phase's engines may change
   * only tests, the fix's only what `paths` allows. Changes, snapshots and the environment are shared.
   */
  withPolicy(policy: PathPolicy): Workspace;
  /** Copies the working tree (with its changes) to a new directory, e.g. for parallel candidate validation. */
  fork(): Promise<Workspace>;
  /**
   * Folders outside the working tree that it links to (a fork's installed dependencies, linked from
   * the workspace it was forked from): commands run in it must be shown them, read-only, or the
   * links lead nowhere inside a sandbox that shows only the working directory.
   */
  readonly linkedFolders: readonly string[];
  dispose(): Promise<void>;
}
