// What each version of the program looks like in the assessment's checkout: for every file some
// patch touches, its text in that version and the lines whose functions are probed there. Every
// version probes the same functions (those any patch changed), so their records compare: a
// function one patch changed and another did not is found in the other by where its lines moved.
import { lineChanges, mapOldLine, type PatchedVersion } from './patched-versions.ts';

export interface VersionPlan {
  name: string;
  /** Path → the text in this version (null: absent) and the lines to probe in that text. */
  files: Map<string, { text: string | null; lines: Set<number> }>;
}

/**
 * The original's plan and each patched version's, over the union of the files they touch.
 * `probed(path)`: whether a file's functions can be probed (its language, not a test).
 */
export function planVersions(
  original: Map<string, string | null>,
  versions: PatchedVersion[],
  probed: (path: string) => boolean,
): { original: VersionPlan; versions: VersionPlan[] } {
  const paths = [...new Set(versions.flatMap((v) => [...v.files.keys()]))].sort();
  const changes = versions.map(
    (v) =>
      new Map(
        paths.map((path) => [
          path,
          diffOf(original.get(path) ?? null, v.files.has(path) ? (v.files.get(path) ?? null) : (original.get(path) ?? null)),
        ]),
      ),
  );
  const originalPlan: VersionPlan = { name: 'original', files: new Map() };
  for (const path of paths) {
    const lines = new Set<number>();
    if (probed(path)) for (const change of changes) for (const line of change.get(path)?.oldLines ?? []) lines.add(line);
    originalPlan.files.set(path, { text: original.get(path) ?? null, lines });
  }
  const plans = versions.map((version, i) => {
    const plan: VersionPlan = { name: version.name, files: new Map() };
    for (const path of paths) {
      const text = version.files.has(path) ? (version.files.get(path) ?? null) : (original.get(path) ?? null);
      const own = changes[i]?.get(path);
      const lines = new Set<number>();
      if (probed(path) && own) {
        for (const line of own.newLines) lines.add(line);
        // The functions other versions changed, where this version has them.
        for (const line of originalPlan.files.get(path)?.lines ?? []) {
          const moved = mapOldLine(own.hunks, line);
          if (moved !== null) lines.add(moved);
        }
      }
      plan.files.set(path, { text, lines });
    }
    return plan;
  });
  return { original: originalPlan, versions: plans };
}

function diffOf(before: string | null, after: string | null): ReturnType<typeof lineChanges> | null {
  // An added or deleted file has nothing to compare its functions with.
  if (before === null || after === null) return null;
  return lineChanges(before, after);
}
