// The look from outside the runner calls the program where a user's install puts it (docs/design.md
// §3.3): a copy of the checkout as it ships (the tests, the git folder and what the package leaves out
// already moved aside), at the place the language's package manager installs it, `node_modules/<name>`
// for an npm package. A program that behaves one way in its own checkout and another once installed
// (it looks for `node_modules` in its own path, or for a `.git` folder beside it) is then seen as
// users get it. The copy sits in the probe's folder, under the checkout, so the checkout's own
// dependencies stay on the resolution path, and its name resolves to the copy too.
import { cp, readdir, rm, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { PROBE_FOLDER } from './probe-checkout.ts';
import type { InstalledAt } from './probe-language.ts';

/** Not copied: the dependencies (found above the copy), git's folder, the probe's own folder. */
const LEFT = new Set(['node_modules', '.git', PROBE_FOLDER]);
/** A checkout larger than this is looked at where it is: the copy would cost more than the look. */
const MOST_FILES = 5000;
const MOST_BYTES = 64 * 1024 * 1024;

/**
 * Runs `calls` with the folder, relative to the checkout `dir`, that holds the copy installed where
 * `installed` says (`.fixloop-probe/installed/node_modules/<name>`); with '' (the checkout itself)
 * when the language says no place, or the checkout is too large to copy. The copy is removed after.
 */
export async function withInstalledCopy<T>(
  dir: string,
  installed: InstalledAt | undefined,
  calls: (prefix: string) => Promise<T>,
): Promise<T> {
  const place = installed ? await installed(dir) : null;
  if (!place || !(await small(dir))) return calls('');
  const top = posix.join(PROBE_FOLDER, 'installed');
  const prefix = posix.join(top, place);
  try {
    // Entry by entry: the copy is under the checkout, and a folder is never copied into itself.
    for (const entry of await readdir(dir)) {
      if (LEFT.has(entry)) continue;
      await cp(join(dir, entry), join(dir, prefix, entry), { recursive: true, verbatimSymlinks: true });
    }
  } catch {
    await rm(join(dir, top), { recursive: true, force: true });
    return calls('');
  }
  try {
    return await calls(prefix);
  } finally {
    await rm(join(dir, top), { recursive: true, force: true });
  }
}

/** Whether the files to copy stay under MOST_FILES and MOST_BYTES. */
async function small(dir: string): Promise<boolean> {
  let files = 0;
  let bytes = 0;
  const walk = async (folder: string, top: boolean): Promise<boolean> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (top && LEFT.has(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!(await walk(path, false))) return false;
      } else if (entry.isFile()) {
        files++;
        bytes += (await stat(path)).size;
        if (files > MOST_FILES || bytes > MOST_BYTES) return false;
      }
    }
    return true;
  };
  return walk(dir, true).catch(() => false);
}
