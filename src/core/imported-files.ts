// Source files that the failing test files import: where to look when no stack frame points into the
// source (an assertion failure in mocha or vitest names only the test file). Imports are followed as
// the runtimes would: relative paths and directories (`require('..')`, a package.json's `main`,
// `module` or `exports`, index files), the package importing itself by name, TypeScript path aliases,
// and Python modules and packages (relative imports, `from pkg import module`, `__init__` re-exports;
// at the root, in src/ or in lib/).
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { packageEntries, type JsResolution } from './js-module-resolution.ts';

const JS_IMPORT = /(?:import\s[^'"]*?from\s*|import\s*\(\s*|require\s*\(\s*|import\s+|export\s[^'"]*?from\s*)['"]([^'"\s]+)['"]/g;
/** Where a Python project keeps its importable packages, besides its root. */
const PACKAGE_ROOTS = ['', 'src/', 'lib/'];
const PY_IMPORT = /^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)|import[ \t]+([\w.]+))/gm;

/** The source files the test files import, following imports three levels further (sorted by path). */
export async function importedSourceFiles(
  root: string,
  testFiles: string[],
  files: readonly string[],
  isTestFile: (p: string) => boolean,
): Promise<string[]> {
  // Three levels below the test files' own imports: a test imports a package's index, which
  // re-exports the module that imports the buggy helper.
  return (await importedInOrder(root, testFiles, files, isTestFile, 4)).sort();
}

/**
 * The source files the test files import, `levels` deep (1: what the test files import themselves),
 * in the order they were found: a level's files before the next level's.
 */
export async function importedInOrder(
  root: string,
  testFiles: readonly string[],
  files: readonly string[],
  isTestFile: (p: string) => boolean,
  levels: number,
): Promise<string[]> {
  const known = new Set(files);
  const js = await jsResolution(root, known);
  const found = new Set<string>();
  const queue = [...testFiles];
  const seen = new Set<string>();
  for (let depth = 0; depth < levels && queue.length; depth++) {
    const next: string[] = [];
    for (const file of queue.splice(0)) {
      if (seen.has(file)) continue;
      seen.add(file);
      const text = await readFile(join(root, file), 'utf8').catch(() => '');
      const targets = file.endsWith('.py') ? resolvePython(file, text, known) : resolveJs(file, text, js);
      for (const target of targets) {
        if (!isTestFile(target)) found.add(target);
        next.push(target);
      }
    }
    queue.push(...next);
  }
  return [...found];
}

async function jsResolution(root: string, known: Set<string>): Promise<JsResolution> {
  const readJson = async (file: string): Promise<Record<string, unknown> | null> => {
    if (!known.has(file)) return null;
    try {
      // tsconfig.json allows comments and trailing commas: drop them before JSON reads it.
      const text = (await readFile(join(root, file), 'utf8')).replace(/^\s*\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1');
      const value: unknown = JSON.parse(text);
      return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };
  const manifest = await readJson('package.json');
  const tsconfig = await readJson('tsconfig.json');
  const options = (tsconfig?.compilerOptions ?? {}) as { baseUrl?: string; paths?: Record<string, string[]> };
  const manifests = new Map<string, Record<string, unknown>>();
  for (const file of known) {
    if (!file.endsWith('package.json') || file.includes('node_modules/')) continue;
    const data = await readJson(file);
    if (data) manifests.set(dirname(file) === '.' ? '' : dirname(file), data);
  }
  return {
    known,
    selfName: typeof manifest?.name === 'string' ? manifest.name : null,
    manifests,
    aliases: Object.entries(options.paths ?? {}).map(([pattern, targets]) => ({
      pattern,
      targets,
      base: options.baseUrl ?? '.',
    })),
  };
}

function resolveJs(file: string, text: string, js: JsResolution): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(JS_IMPORT)) {
    const spec = m[1];
    if (!spec) continue;
    out.push(...packageEntries(file, spec, js));
  }
  return out;
}

function resolvePython(file: string, text: string, known: Set<string>): string[] {
  const out: string[] = [];
  const module = (path: string) => {
    for (const candidate of PACKAGE_ROOTS.flatMap((root) => [`${root}${path}.py`, `${root}${path}/__init__.py`])) {
      const n = normalize(candidate);
      if (known.has(n)) return n;
    }
    return null;
  };
  for (const m of text.matchAll(PY_IMPORT)) {
    const from = m[1];
    const names = (m[2] ?? '')
      .replace(/[()\\]/g, ' ')
      .split(',')
      .map((n) => n.trim().split(/\s+/)[0] ?? '')
      .filter((n) => /^\w+$/.test(n));
    const bases = from !== undefined ? moduleBases(file, from) : [(m[3] ?? '').replace(/\./g, '/')];
    for (const base of bases) {
      const hit = base ? module(base) : null;
      if (hit) out.push(hit);
      // `from pkg import core` imports pkg/core.py when core is a module, not a name of pkg.
      for (const name of names) {
        const sub = module(base ? `${base}/${name}` : name);
        if (sub) out.push(sub);
      }
    }
  }
  return out;
}

/** Where `from <module> import ...` may point: relative to the importing file's package, or from the root. */
function moduleBases(file: string, from: string): string[] {
  const dots = /^\.*/.exec(from)?.[0].length ?? 0;
  const path = from.slice(dots).replace(/\./g, '/');
  if (dots === 0) return [path, `${dirname(file)}/${path}`];
  let dir = dirname(file);
  for (let i = 1; i < dots; i++) dir = dirname(dir);
  return [normalize(path ? `${dir}/${path}` : dir)];
}
