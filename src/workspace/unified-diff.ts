// A unified diff in git's format (applicable with `git apply`), computed in memory from the
// baseline blobs and the files on disk: no git command runs in a tree untrusted code has touched.
import { structuredPatch } from 'diff';

export interface DiffInput {
  path: string;
  before: Buffer | null;
  after: Buffer | null;
  /** git file mode of the new file, e.g. 100644 or 100755. */
  mode: string;
}

export function isBinary(content: Buffer | null): boolean {
  return content !== null && content.subarray(0, 8000).includes(0);
}

export function fileDiff({ path, before, after, mode }: DiffInput): string {
  const header = [`diff --git a/${path} b/${path}`];
  if (before === null) header.push(`new file mode ${mode}`);
  if (after === null) header.push(`deleted file mode ${mode}`);
  if (isBinary(before) || isBinary(after))
    return `${header.join('\n')}\nBinary files ${before ? `a/${path}` : '/dev/null'} and ${after ? `b/${path}` : '/dev/null'} differ\n`;
  const oldText = before?.toString('utf8') ?? '';
  const newText = after?.toString('utf8') ?? '';
  const patch = structuredPatch(`a/${path}`, `b/${path}`, oldText, newText, '', '', { context: 3 });
  // An empty file created or deleted has no hunks: git's header alone says it.
  if (patch.hunks.length === 0) return before === null || after === null ? `${header.join('\n')}\n` : '';
  header.push(`--- ${before ? `a/${path}` : '/dev/null'}`, `+++ ${after ? `b/${path}` : '/dev/null'}`);
  const hunks = patch.hunks.map((h) => {
    // Unified diff: a range of 0 lines starts at the line before it.
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    return [`@@ -${Math.max(0, oldStart)},${h.oldLines} +${Math.max(0, newStart)},${h.newLines} @@`, ...h.lines].join('\n');
  });
  return `${header.join('\n')}\n${hunks.join('\n')}\n`;
}

export function lineCounts(before: Buffer | null, after: Buffer | null): { added: number; removed: number } {
  if (isBinary(before) || isBinary(after)) return { added: 0, removed: 0 };
  const patch = structuredPatch('a', 'b', before?.toString('utf8') ?? '', after?.toString('utf8') ?? '', '', '', { context: 0 });
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { added, removed };
}
