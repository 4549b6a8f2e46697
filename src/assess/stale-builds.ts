// A published package that ships a second copy of the code the tests load: a build of the sources
// (a bundle or compiled copy under `dist/`), or a copy kept beside them for another module format
// (an ES module folder next to the CommonJS one, which `exports` hands to `import`). A patch that
// changes a function in the sources and leaves the other copy as it was passes every test that loads
// the sources, and users who load the copy keep the bug. Found in the shipped files the patch left
// as they were: in a build's output, a function of the changed function's own name (a bundler keeps
// a name, not always its text); elsewhere, a function of that name whose text is the original
// function's, near enough (`COPY_LIKENESS`). A reason to review, not a refusal: the build may be
// redone at release time, as some projects do.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StaleBuild } from '../core/assessment.ts';
import type { DefinedFunctions, ShippedFiles } from './probe-language.ts';

/** Larger shipped files are not read: a bundle of that size is not the project's alone. */
const MAX_BYTES = 2_000_000;
/** Shipped files read at most, in path order. */
const MAX_FILES = 200;
/** Stale copies kept for the report. */
const SHOWN = 5;
/** How near a function's text must be to the original's to be its copy (of the tokens, in order). */
const COPY_LIKENESS = 0.85;
/** Tokens compared at most per function: a longer one is compared by its start. */
const MAX_TOKENS = 1500;

/** A changed call's function: its qualified name and file, and that file's text in the original. */
export interface ChangedFunction {
  name: string;
  path: string;
  original: string | null;
}

/**
 * The functions of `functions` that a shipped file the patch (its files `patched`) left as it was
 * holds a copy of, as the language's `definedFunctions` reads the files.
 */
export async function staleBuilds(
  dir: string,
  shipped: ShippedFiles,
  files: { packaged: ReadonlySet<string>; patched: ReadonlySet<string> },
  functions: readonly ChangedFunction[],
): Promise<StaleBuild[]> {
  const read = shipped.definedFunctions?.bind(shipped);
  if (!read || functions.length === 0) return [];
  const originals = functions.map((fn) => ({ fn, text: originalText(read, fn) }));
  const found: StaleBuild[] = [];
  const candidates = [...files.packaged].filter((path) => !files.patched.has(path)).sort();
  for (const path of candidates.slice(0, MAX_FILES)) {
    const defined = await definedIn(dir, path, read);
    if (!defined) continue;
    for (const { fn, text } of originals) {
      const own = lastName(fn.name);
      const copy = defined.functions.some(
        (f) => lastName(f.name) === own && (defined.built || (text !== null && likeness(text, f.text) >= COPY_LIKENESS)),
      );
      if (copy && !found.some((f) => f.function === fn.name && f.shipped === path))
        found.push({ function: fn.name, changed: fn.path, shipped: path });
    }
    if (found.length >= SHOWN) break;
  }
  return found.slice(0, SHOWN);
}

/** What `read` finds in the shipped file at `path`; null for one too large or unreadable. */
export async function definedIn(
  dir: string,
  path: string,
  read: NonNullable<ShippedFiles['definedFunctions']>,
): Promise<DefinedFunctions | null> {
  const size = await stat(join(dir, path)).then(
    (s) => s.size,
    () => Infinity,
  );
  if (size > MAX_BYTES) return null;
  const source = await readFile(join(dir, path), 'utf8').catch(() => null);
  return source === null ? null : read(path, source);
}

/** The changed function's text as the original has it; null when it had none (a function the patch added). */
function originalText(read: NonNullable<ShippedFiles['definedFunctions']>, fn: ChangedFunction): string | null {
  if (fn.original === null) return null;
  const functions = read(fn.path, fn.original)?.functions ?? [];
  return (
    (functions.find((f) => f.name === fn.name) ?? functions.find((f) => lastName(f.name) === lastName(fn.name)))?.text ?? null
  );
}

/** `Parser.parse#2` → `parse`: a copy keeps a function's own name, not always what holds it. */
export function lastName(name: string): string {
  return name.replace(/#\d+$/, '').split('.').at(-1) ?? name;
}

/** The share of two texts' tokens (comments and spacing aside) that they hold in the same order. */
export function likeness(a: string, b: string): number {
  const x = tokens(a);
  const y = tokens(b);
  if (x.length === 0 || y.length === 0) return 0;
  // The longest common subsequence, one row at a time.
  let previous = new Array<number>(y.length + 1).fill(0);
  for (const token of x) {
    const row = [0];
    for (let j = 0; j < y.length; j++) row.push(token === y[j] ? previous[j]! + 1 : Math.max(previous[j + 1]!, row[j]!));
    previous = row;
  }
  return (2 * previous[y.length]!) / (x.length + y.length);
}

function tokens(text: string): string[] {
  const bare = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ');
  return (bare.match(/[A-Za-z_$][\w$]*|\d[\w.]*|\S/g) ?? []).slice(0, MAX_TOKENS);
}
