// The files a checkout's runs wrote: what the look from outside the runner sets aside, so that a
// plain process sees the program as it ships, not what an earlier test process left beside it (a
// cache under node_modules/.cache, a file in the source folder). Found by their modification time,
// from fixloop's side: no command of the repository's runs for it, and no link is followed.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** At most this many entries are looked at: a tree larger than that is looked at in part. */
const MAX_ENTRIES = 200_000;

/**
 * Every file or link under `root` (relative paths, `/`-separated) last modified at or after
 * `sinceMs`, but under the paths `skip` names (relative too: a folder skips what it holds).
 */
export async function writtenSince(root: string, sinceMs: number, skip: ReadonlySet<string>): Promise<string[]> {
  const written: string[] = [];
  const folders = [''];
  let seen = 0;
  while (folders.length > 0 && seen < MAX_ENTRIES) {
    const folder = folders.pop() ?? '';
    const entries = await readdir(join(root, folder), { withFileTypes: true }).catch(() => []);
    seen += entries.length;
    const files: string[] = [];
    for (const entry of entries) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (skip.has(path)) continue;
      if (entry.isDirectory()) folders.push(path);
      else files.push(path);
    }
    // A folder's files at once: libuv's threads stat them side by side.
    const modified = await Promise.all(files.map((path) => modifiedSince(join(root, path), sinceMs)));
    written.push(...files.filter((_, i) => modified[i]));
  }
  return written;
}

async function modifiedSince(file: string, sinceMs: number): Promise<boolean> {
  try {
    return (await lstat(file)).mtimeMs >= sinceMs;
  } catch {
    return false;
  }
}
