// A patch put onto a tree with `git apply` (checked first, so a patch that does not apply changes
// nothing): a checkout fixloop made itself (the replay, the push), or the user's own tree (`--apply`,
// apply-to-user-tree.ts).
import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { gitEnvironment, gitMessage } from './git.ts';
import { WorkspaceError } from './workspace-error.ts';

/** The repository-relative paths a patch in git's format touches (both sides of each file). */
export function touchedFiles(patch: string): string[] {
  const files = new Set<string>();
  for (const m of patch.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gm)) {
    if (m[1]) files.add(m[1]);
    if (m[2]) files.add(m[2]);
  }
  return [...files];
}

/** `ceiling`: git must not find an enclosing repository (a plain folder: git apply as a patch program). */
export async function gitApply(dir: string, patch: string, check: boolean, ceiling: boolean): Promise<void> {
  const args = ['-c', 'core.hooksPath=/dev/null', 'apply', '--whitespace=nowarn', ...(check ? ['--check'] : []), '-'];
  await new Promise<void>((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      { cwd: dir, env: gitEnvironment(ceiling ? { GIT_CEILING_DIRECTORIES: dirname(dir) } : {}) },
      (error, _stdout, stderr) => {
        if (error) reject(new Error(stderr.trim() || error.message));
        else resolve();
      },
    );
    child.stdin?.end(patch);
  });
}

/** Applies a patch to a checkout fixloop made itself (`git apply --check` first). */
export async function applyPatch(dir: string, patch: string): Promise<void> {
  if (!patch.trim()) return;
  try {
    await gitApply(dir, patch, true, false);
    await gitApply(dir, patch, false, false);
  } catch (error) {
    throw new WorkspaceError(
      'PATCH_DOES_NOT_APPLY',
      `the patch does not apply (${touchedFiles(patch).join(', ')}): ${gitMessage(error)}`,
    );
  }
}
