// What a git archive of the project leaves out: the paths its `.gitattributes` files mark
// `export-ignore`. An archive is how many users get a project (a release's source tarball, an npm
// or pip install from a repository host's tarball), so a fix kept only in such a file is not in
// what they install. git says which paths are marked, by the project's own attribute files; the
// check reads attributes only (no filter or driver runs), against an empty repository of fixloop's
// so that nothing of the checkout's `.git` or the operator's git setup takes part.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plainGit } from '../workspace/plain-git.ts';

/**
 * Of `paths` (relative to `dir`, `/`-separated), those a git archive of `dir` leaves out: marked
 * `export-ignore` themselves, or inside a folder that is. Empty when git cannot say.
 */
export async function archiveLeavesOut(dir: string, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const empty = await mkdtemp(join(tmpdir(), 'fixloop-attributes-'));
  try {
    await plainGit(empty, ['init', '-q', '--bare']);
    const asked = [...new Set(paths.flatMap(withFolders))];
    const output = await plainGit(
      dir,
      [`--git-dir=${empty}`, `--work-tree=${dir}`, 'check-attr', '-z', '--stdin', 'export-ignore'],
      { input: asked.map((path) => `${path}\0`).join('') },
    );
    const ignored = markedSet(output);
    return paths.filter((path) => withFolders(path).some((part) => ignored.has(part)));
  } catch {
    return [];
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
}

/** `a/b/c.js` → `a`, `a/b`, `a/b/c.js`: git marks a folder, and an archive then leaves all it holds. */
function withFolders(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** The paths of `check-attr -z` output (path, attribute, value, each ended by NUL) whose value is `set`. */
function markedSet(output: string): Set<string> {
  const fields = output.split('\0');
  const marked = new Set<string>();
  for (let i = 0; i + 2 < fields.length; i += 3) if (fields[i + 2] === 'set') marked.add(fields[i]!);
  return marked;
}
