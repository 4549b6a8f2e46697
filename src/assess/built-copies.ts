// Where a package's build put each changed function: the look from outside the runner calls the built
// copy, the code users get, when the package builds what it ships on packing (npm-build.ts) and the
// tests load the sources. Found by the function's own name in the files the build shipped, in path
// order; a function with no such copy is called where the tests found it.
import type { ShippedFiles } from './probe-language.ts';
import { definedIn, lastName } from './stale-builds.ts';

/** Shipped files read at most. */
const MAX_FILES = 200;

/** The key of a changed call's function in the map builtCopies returns. */
export const copyKey = (fn: { path: string; name: string }): string => `${fn.path}\0${fn.name}`;

/** Each function's built copy (copyKey → the shipped file that defines a function of its name). */
export async function builtCopies(
  dir: string,
  tool: ShippedFiles,
  shipped: ReadonlySet<string>,
  functions: ReadonlyArray<{ path: string; name: string }>,
): Promise<Map<string, string>> {
  const copies = new Map<string, string>();
  const read = tool.definedFunctions?.bind(tool);
  if (!read) return copies;
  const wanted = functions.filter((fn) => !shipped.has(fn.path));
  for (const path of [...shipped].sort().slice(0, MAX_FILES)) {
    if (wanted.every((fn) => copies.has(copyKey(fn)))) break;
    const defined = await definedIn(dir, path, read);
    if (!defined) continue;
    const names = new Set(defined.functions.map((f) => lastName(f.name)));
    for (const fn of wanted) if (!copies.has(copyKey(fn)) && names.has(lastName(fn.name))) copies.set(copyKey(fn), path);
  }
  return copies;
}
