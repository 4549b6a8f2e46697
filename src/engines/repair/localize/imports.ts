// Source files that the failing test files import (relative JS/TS imports, Python imports):
// where to look when no stack frame points into the source.
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';

const JS_IMPORT = /(?:import\s[^'"]*?from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
const PY_IMPORT = /^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))/gm;
const JS_EXTENSIONS = ['', '.js', '.ts', '.mjs', '.cjs', '.jsx', '.tsx', '.mts', '.cts', '/index.js', '/index.ts'];

export async function importedSourceFiles(root: string, testFiles: string[], files: readonly string[], isTestFile: (p: string) => boolean): Promise<string[]> {
  const known = new Set(files);
  const found = new Set<string>();
  const queue = [...testFiles];
  const seen = new Set<string>();
  // Follow imports two levels deep: a test imports a module that imports the buggy helper.
  for (let depth = 0; depth < 3 && queue.length; depth++) {
    const next: string[] = [];
    for (const file of queue.splice(0)) {
      if (seen.has(file)) continue;
      seen.add(file);
      const text = await readFile(join(root, file), 'utf8').catch(() => '');
      for (const target of resolveImports(file, text, known)) {
        if (!isTestFile(target)) found.add(target);
        next.push(target);
      }
    }
    queue.push(...next);
  }
  return [...found].sort();
}

function resolveImports(file: string, text: string, known: Set<string>): string[] {
  const out: string[] = [];
  if (file.endsWith('.py')) {
    for (const m of text.matchAll(PY_IMPORT)) {
      const module = (m[1] ?? m[2] ?? '').replace(/^\.+/, '');
      if (!module) continue;
      const path = module.replace(/\./g, '/');
      for (const candidate of [`${path}.py`, `${path}/__init__.py`, `src/${path}.py`, `${dirname(file)}/${path}.py`]) {
        const n = normalize(candidate);
        if (known.has(n)) out.push(n);
      }
    }
    return out;
  }
  for (const m of text.matchAll(JS_IMPORT)) {
    const spec = m[1];
    if (!spec) continue;
    const base = normalize(join(dirname(file), spec));
    // TypeScript sources are imported as `./x.js` too.
    const stems = [base, base.replace(/\.[cm]?js$/, '')];
    const hit = stems.flatMap((s) => JS_EXTENSIONS.map((e) => s + e)).find((c) => known.has(c));
    if (hit) out.push(hit);
  }
  return out;
}
