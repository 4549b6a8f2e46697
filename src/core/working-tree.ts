// Where a local run started (docs/design.md §1.3): a repository's working tree as it is (uncommitted
// changes to tracked files, untracked files git does not ignore) becomes a commit of fixloop's
// mirror, never of the user's repository. This is what the run says about it, and what `--apply`
// checks the user's tree against before it puts the patch back.

export type WorkingTreeState = 'modified' | 'added' | 'deleted' | 'untracked';

export interface WorkingTreeFile {
  /** Repository-relative POSIX path. */
  path: string;
  state: WorkingTreeState;
  /**
   * git's blob id of the file's bytes on disk when the run started (a symlink: its target), null when
   * it was deleted: a file the patch touches must still hold these bytes for `--apply` to put it back.
   */
  blob: string | null;
}

export interface WorkingTreeStart {
  /** The commit the working tree's changes sit on (the user's HEAD); null in a repository with no commit yet. */
  head: string | null;
  /** Every file that differs from `head`; empty: the tree was clean, or the run was asked to start from HEAD. */
  files: WorkingTreeFile[];
  /** True when the changes are part of the run; false: the run started from `head` (`--head`). */
  included: boolean;
}

const NOUNS: Array<[WorkingTreeState, string]> = [
  ['modified', 'modified'],
  ['added', 'added'],
  ['deleted', 'deleted'],
  ['untracked', 'untracked'],
];

/** "2 modified, 1 untracked file", or "no uncommitted change"; one phrase for progress, report and docs. */
export function describeChanges(files: readonly WorkingTreeFile[]): string {
  const parts = NOUNS.map(([state, word]) => [files.filter((f) => f.state === state).length, word] as const).filter(
    ([n]) => n > 0,
  );
  const last = parts.at(-1);
  if (!last) return 'no uncommitted change';
  // The noun follows the last count, as one says it: "2 modified, 1 untracked file".
  return `${parts.map(([n, word]) => `${n} ${word}`).join(', ')} file${last[0] === 1 ? '' : 's'}`;
}

/** The one line a run says about where it started, or null for a repository that is not a local working tree. */
export function startedFromLine(start: WorkingTreeStart | undefined): string | null {
  if (!start) return null;
  const head = start.head ? start.head.slice(0, 12) : 'no commit yet';
  if (!start.included)
    return `started from HEAD (${head})${start.files.length ? `; left out of the run: ${describeChanges(start.files)} of the working tree` : ''}`;
  if (start.files.length === 0) return `started from the working tree: clean, at HEAD (${head})`;
  return `started from the working tree: ${describeChanges(start.files)} on HEAD (${head})`;
}
