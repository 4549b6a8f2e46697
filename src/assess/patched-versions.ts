// The versions of the program the assessment compares: the original (the pristine commit) and each
// plausible patch applied to it, as file texts in memory. Computed from the patches alone (the
// `diff` library applies them), so no git command runs in a checkout the repository's code has run in.
import { applyPatch, parsePatch, structuredPatch, type StructuredPatch } from 'diff';

/** One patched version: each file it touches, with its text after the patch (null: deleted). */
export interface PatchedVersion {
  name: string;
  files: Map<string, string | null>;
}

/** Repository-relative path of a side of a git diff (`a/src/x.js` → `src/x.js`); null for /dev/null. */
function sidePath(name: string | undefined): string | null {
  if (!name || name === '/dev/null') return null;
  return name.replace(/^[ab]\//, '');
}

/** The files a patch touches, old path and new path (the same unless renamed). */
export function touchedFiles(patch: string): Array<{ oldPath: string | null; newPath: string | null }> {
  return parsePatch(patch).map((p) => ({ oldPath: sidePath(p.oldFileName), newPath: sidePath(p.newFileName) }));
}

/**
 * The texts of the files a patch touches, after it, given a reader of the original texts. Throws
 * when a hunk does not apply (the judge replayed this patch, so that is a bug, never an input).
 */
export async function applyInMemory(
  name: string,
  patch: string,
  original: (path: string) => Promise<string | null>,
): Promise<PatchedVersion> {
  const files = new Map<string, string | null>();
  for (const filePatch of parsePatch(patch)) {
    const oldPath = sidePath(filePatch.oldFileName);
    const newPath = sidePath(filePatch.newFileName);
    if (!newPath) {
      if (oldPath) files.set(oldPath, null);
      continue;
    }
    const before = oldPath ? ((await original(oldPath)) ?? '') : '';
    const after = applyPatch(before, filePatch);
    if (after === false) throw new Error(`the patch ${name} does not apply to ${oldPath ?? newPath} in memory`);
    if (oldPath && oldPath !== newPath) files.set(oldPath, null);
    files.set(newPath, after);
  }
  return { name, files };
}

/** Lines changed between two texts: the old side's lines (1-based) and the new side's. */
export interface LineChanges {
  hunks: StructuredPatch['hunks'];
  oldLines: Set<number>;
  newLines: Set<number>;
}

/**
 * A pure insertion changes no line of the old side and a pure deletion none of the new one: the
 * lines around the place count then, so that the function holding the place is found on both sides.
 */
export function lineChanges(before: string, after: string): LineChanges {
  const { hunks } = structuredPatch('a', 'b', before, after, undefined, undefined, { context: 0 });
  const oldLines = new Set<number>();
  const newLines = new Set<number>();
  for (const hunk of hunks) {
    addRange(oldLines, hunk.oldStart, hunk.oldLines);
    addRange(newLines, hunk.newStart, hunk.newLines);
  }
  return { hunks, oldLines, newLines };
}

function addRange(lines: Set<number>, start: number, count: number): void {
  if (count === 0) {
    // The `diff` library's hunks with no lines on a side start at the line that follows the place
    // (git's start at the one before it): the neighbours on both sides of the place.
    if (start > 1) lines.add(start - 1);
    lines.add(Math.max(1, start));
    return;
  }
  for (let line = start; line < start + count; line++) lines.add(line);
}

/** Where an unchanged line of the old text is in the new one (null when the line itself changed). */
export function mapOldLine(hunks: StructuredPatch['hunks'], oldLine: number): number | null {
  let shift = 0;
  for (const hunk of hunks) {
    const oldEnd = hunk.oldStart + hunk.oldLines;
    if (hunk.oldLines > 0 && oldLine >= hunk.oldStart && oldLine < oldEnd) return null;
    // A hunk starts at `oldStart`, also one with no old lines (it inserts before that line).
    if (oldLine < hunk.oldStart) break;
    shift += hunk.newLines - hunk.oldLines;
  }
  return oldLine + shift;
}

/** Each alternative patch applied in memory, as `alternative-<n>`; one that touches nothing or does not apply is left out. */
export async function alternativeVersions<T extends { patch: string }>(
  alternatives: readonly T[],
  original: (path: string) => Promise<string | null>,
): Promise<Array<{ info: T; version: PatchedVersion }>> {
  const out: Array<{ info: T; version: PatchedVersion }> = [];
  for (const [i, info] of alternatives.entries()) {
    if (touchedFiles(info.patch).length === 0) continue;
    try {
      out.push({ info, version: await applyInMemory(`alternative-${i + 1}`, info.patch, original) });
    } catch {
      // An alternative that does not apply to the base is not compared.
    }
  }
  return out;
}
