// A published package that ships a build of its sources (a bundle or compiled copy under `dist/`,
// committed beside them): a patch that changes a function in the sources and leaves the build's copy
// of it as it was passes every test that loads the sources, and users, who load the build, keep the
// bug. Found by name: a shipped build file the patch did not change that defines a function of the
// changed function's name. It is a reason to review, not a refusal: the build may be redone at
// release time, as some projects do.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StaleBuild } from '../core/assessment.ts';
import type { ShippedFiles } from './probe-language.ts';

/** Larger shipped files are not read: a build's bundle of that size is not the project's alone. */
const MAX_BYTES = 2_000_000;
/** Shipped files read at most, in path order. */
const MAX_FILES = 200;
/** Stale copies kept for the report. */
const SHOWN = 5;

/**
 * The functions of `functions` (a changed call's function and its file) that a shipped build file,
 * one the patch (its files `patched`) left as it was, defines too.
 */
export async function staleBuilds(
  dir: string,
  shipped: ShippedFiles,
  files: { packaged: ReadonlySet<string>; patched: ReadonlySet<string> },
  functions: ReadonlyArray<{ name: string; path: string }>,
): Promise<StaleBuild[]> {
  const builtNames = shipped.builtNames;
  if (!builtNames || functions.length === 0) return [];
  const found: StaleBuild[] = [];
  const candidates = [...files.packaged].filter((path) => !files.patched.has(path)).sort();
  for (const path of candidates.slice(0, MAX_FILES)) {
    const size = await stat(join(dir, path)).then(
      (s) => s.size,
      () => Infinity,
    );
    if (size > MAX_BYTES) continue;
    const source = await readFile(join(dir, path), 'utf8').catch(() => null);
    const names = source === null ? null : builtNames(path, source);
    if (!names) continue;
    for (const fn of functions) {
      const own = fn.name.split('.').at(-1) ?? fn.name;
      if (names.has(own) && !found.some((f) => f.function === fn.name && f.shipped === path))
        found.push({ function: fn.name, changed: fn.path, shipped: path });
    }
    if (found.length >= SHOWN) break;
  }
  return found.slice(0, SHOWN);
}
