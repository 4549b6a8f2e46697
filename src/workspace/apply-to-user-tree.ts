// `--apply`: the verified patch onto the user's own working tree, the tree the run started from
// (docs/design.md §1.3). The patch was made against that start, so every file it touches must still be
// as it was then; other files may have changed meanwhile (the user kept working), and stay as they
// are. A file the patch touches that changed is refused by name, and nothing is written.
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkingTreeStart } from '../core/working-tree.ts';
import { gitBlobId } from './baseline.ts';
import { gitApply, touchedFiles } from './apply-patch.ts';
import { gitMessage } from './git.ts';
import { isRepositoryTop, plainGit, PlainGitError } from './plain-git.ts';
import { fileBytes } from './working-tree-snapshot.ts';
import { WorkspaceError } from './workspace-error.ts';

/**
 * The files of `files` that are no longer as the run found them. A file the start recorded (an
 * uncommitted change the run included) is compared by its bytes; any other by git itself against
 * the HEAD the run started on (so line-ending conversions count as git counts them).
 */
export async function changedSinceStart(top: string, files: string[], start: WorkingTreeStart): Promise<string[]> {
  const recorded = new Map(start.included ? start.files.map((f) => [f.path, f.blob] as const) : []);
  const changed: string[] = [];
  for (const file of files) {
    const bytes = await fileBytes(join(top, file));
    const now = bytes && gitBlobId(bytes);
    const differs = recorded.has(file) ? recorded.get(file) !== now : await differsFromHead(top, file, start.head, now !== null);
    if (differs) changed.push(file);
  }
  return changed;
}

async function differsFromHead(top: string, file: string, head: string | null, onDisk: boolean): Promise<boolean> {
  const inHead =
    head !== null &&
    (await plainGit(top, ['cat-file', '-e', `${head}:${file}`]).then(
      () => true,
      () => false,
    ));
  if (!inHead || !onDisk) return inHead !== onDisk;
  try {
    await plainGit(top, ['diff', '--quiet', '--no-ext-diff', '--no-textconv', head, '--', file]);
    return false;
  } catch (error) {
    if (error instanceof PlainGitError && error.exitCode === 1) return true;
    throw error;
  }
}

/**
 * Puts `patch` onto the working tree at `dir`. With `start` (a run that began at the top of this
 * working tree), refused when a file the patch touches changed since; without (a sub-folder, a
 * folder that is no repository), `git apply --check` alone decides. The tree is left as it was on refusal.
 */
export async function applyPatchToUserTree(dir: string, patch: string, start: WorkingTreeStart | null): Promise<void> {
  if (!patch.trim()) return;
  const source = await realpath(dir);
  const isTop = await isRepositoryTop(source);
  const files = touchedFiles(patch);
  if (isTop && start) {
    const changed = await changedSinceStart(source, files, start);
    if (changed.length)
      throw new WorkspaceError(
        'APPLY_CONFLICT',
        `${changed.join(', ')} changed since the run started from ${start.included ? 'the working tree' : 'HEAD'}; the patch was made against ${changed.length === 1 ? 'its' : 'their'} earlier content`,
      );
  }
  try {
    // Outside the top of a repository, git apply works as a plain patch program on the folder.
    await gitApply(source, patch, true, !isTop);
    await gitApply(source, patch, false, !isTop);
  } catch (error) {
    throw new WorkspaceError('APPLY_CONFLICT', `the patch does not apply to ${dir} (${files.join(', ')}): ${gitMessage(error)}`);
  }
}
