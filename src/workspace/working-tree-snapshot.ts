// A local repository's working tree as it is (docs/design.md §1.3) becomes a commit of fixloop's mirror:
// the run, its baseline, its replay and its patch all start from that commit. Nothing is written to
// the user's repository: git reads it with GIT_OPTIONAL_LOCKS=0 (no index refresh), and the snapshot
// is built with the mirror as GIT_DIR, a temporary index, and the user's folder only as the work tree
// it reads files from. The mirror's own configuration has no filter drivers, so no program of the
// repository's runs. Which files count is the user's git's answer (`git status`, with their
// .gitignore, info/exclude and global excludes): ignored files (node_modules, build output) stay out.
import { lstat, readFile, readlink, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkingTreeFile, WorkingTreeStart, WorkingTreeState } from '../core/working-tree.ts';
import { gitBlobId } from './baseline.ts';
import { gitTopLevel, plainGit } from './plain-git.ts';

/** The ref that keeps the snapshot in the mirror (outside refs/heads: clones do not show it as a branch). */
export const WORKING_TREE_REF = 'refs/fixloop/working-tree';

/** A file's bytes as git stores them (a symlink: its target), or null when there is no file. */
export async function fileBytes(path: string): Promise<Buffer | null> {
  const stat = await lstat(path).catch(() => null);
  if (stat?.isSymbolicLink()) return Buffer.from(await readlink(path));
  return stat?.isFile() ? readFile(path) : null;
}

async function headOf(top: string): Promise<string | null> {
  return (await plainGit(top, ['rev-parse', '--verify', '--quiet', 'HEAD']).catch(() => '')).trim() || null;
}

/**
 * What differs from HEAD in the working tree at `top` (the top of a repository), each file with the
 * blob id of its bytes now. `included`: whether the run starts from these changes or from HEAD.
 */
export async function readWorkingTree(top: string, included: boolean): Promise<WorkingTreeStart> {
  const head = await headOf(top);
  // --no-renames: a rename is its two paths, deleted and added; -uall: untracked files, not folders.
  const out = await plainGit(top, [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    '--no-renames',
    '--ignore-submodules=all',
  ]);
  const files = new Map<string, WorkingTreeFile>();
  for (const entry of out.split('\0').filter(Boolean)) {
    const path = entry.slice(3).replace(/\/$/, '');
    if (entry.startsWith('??') && isFixloopRecord(path)) continue;
    const bytes = await fileBytes(join(top, path));
    files.set(path, { path, state: stateOf(entry.slice(0, 2), bytes !== null), blob: bytes && gitBlobId(bytes) });
  }
  return { head, files: [...files.values()], included };
}

/**
 * fixloop's own run records (`.fixloop/` of a run started inside the repository) are never the
 * project's: a second run must not carry the first one's artifacts into its workspace.
 */
function isFixloopRecord(path: string): boolean {
  return path === '.fixloop' || path.startsWith('.fixloop/');
}

function stateOf(xy: string, onDisk: boolean): WorkingTreeState {
  if (xy === '??') return 'untracked';
  if (!onDisk) return 'deleted';
  return xy.startsWith('A') ? 'added' : 'modified';
}

/**
 * Writes the working tree `start` describes into `mirror` as one commit on top of its HEAD and
 * returns its sha. The commit's dates are HEAD's, so the same tree gives the same sha again.
 */
export async function snapshotWorkingTree(
  top: string,
  mirror: string,
  start: WorkingTreeStart,
  scratch: string,
): Promise<string> {
  const index = join(scratch, 'working-tree.index');
  const env = { GIT_DIR: mirror, GIT_WORK_TREE: top, GIT_INDEX_FILE: index };
  const inMirror = (args: string[], input?: string, extra: Record<string, string> = {}) =>
    plainGit(top, ['-c', 'core.bare=false', ...args], { env: { ...env, ...extra }, ...(input !== undefined ? { input } : {}) });
  try {
    await inMirror(start.head ? ['read-tree', start.head] : ['read-tree', '--empty']);
    // --add/--remove from the list git status gave: exactly those files, as they are on disk.
    await inMirror(['update-index', '--add', '--remove', '-z', '--stdin'], start.files.map((f) => `${f.path}\0`).join(''));
    const tree = (await inMirror(['write-tree'])).trim();
    const seconds = start.head ? (await inMirror(['show', '-s', '--format=%ct', start.head])).trim() : '0';
    const date = `@${seconds} +0000`;
    const parent = start.head ? ['-p', start.head] : [];
    const message = 'fixloop: the working tree as the run found it\n';
    const sha = (
      await inMirror(['commit-tree', tree, ...parent, '-F', '-'], message, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date })
    ).trim();
    await inMirror(['update-ref', WORKING_TREE_REF, sha]);
    return sha;
  } finally {
    await rm(index, { force: true });
  }
}

/**
 * The text of each of `names` (paths relative to `dir`) as a run from `dir` will have it, read before
 * the run so that a check of the configuration agrees with the run: from HEAD (`fromHead`), else as
 * on disk when git does not ignore it; in a folder outside git, as on disk. null: the run has no such file.
 */
export async function startingFiles(
  dir: string,
  names: readonly string[],
  fromHead: boolean,
): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const disk = async (name: string) => readFile(join(dir, name), 'utf8').catch(() => null);
  if ((await gitTopLevel(dir)) === null) {
    for (const name of names) out.set(name, await disk(name));
    return out;
  }
  const listed = fromHead
    ? new Set<string>()
    : new Set(
        (await plainGit(dir, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...names])).split('\0'),
      );
  for (const name of names) {
    // `HEAD:./name`: the path relative to `dir`, which may be a sub-folder of the repository.
    if (fromHead) out.set(name, await plainGit(dir, ['show', `HEAD:./${name}`]).catch(() => null));
    else out.set(name, listed.has(name) ? await disk(name) : null);
  }
  return out;
}
