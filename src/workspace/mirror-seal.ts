// The trusted copy stays trusted (docs/design.md §3.2.6): under the `process` backend the repository's
// code can reach the bare mirror that diffs and replays are taken from. The seal records every file
// of the mirror right after the clone (before any untrusted code ran) by inode, size, mode and
// change time, and is checked before the mirror is used again; any write, rename, added or removed
// file breaks it. The change time cannot be set back by a process, root included, so a rewrite that
// restores size and modification time is still seen.
import { lstat, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { WorkspaceError } from './workspace-error.ts';

export interface MirrorSeal {
  readonly path: string;
  /** Throws `MIRROR_CHANGED`, naming a changed file, when the mirror is no longer as sealed. */
  verify(): Promise<void>;
}

async function fingerprint(root: string): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const stat = await lstat(path, { bigint: true });
      entries.set(relative(root, path), `${stat.ino}:${stat.size}:${stat.mode}:${stat.mtimeNs}:${stat.ctimeNs}`);
      if (entry.isDirectory()) await walk(path);
    }
  };
  await walk(root);
  return entries;
}

export async function sealMirror(path: string): Promise<MirrorSeal> {
  const sealed = await fingerprint(path);
  return {
    path,
    async verify() {
      const now = await fingerprint(path);
      // Added and removed files first: they name the cause better than the folder that holds them.
      for (const file of now.keys()) if (!sealed.has(file)) throw mirrorChanged(path, file, 'was added');
      for (const file of sealed.keys()) if (!now.has(file)) throw mirrorChanged(path, file, 'was removed');
      for (const [file, print] of sealed) if (now.get(file) !== print) throw mirrorChanged(path, file, 'was changed');
    },
  };
}

function mirrorChanged(mirror: string, file: string, how: string): WorkspaceError {
  return new WorkspaceError(
    'MIRROR_CHANGED',
    `the trusted mirror ${mirror} changed after the repository's code ran (${file} ${how}): its diffs and replays cannot be trusted`,
  );
}
