// Where the failing tests of a Python project enter the program (probe_entry_points.py reads the
// syntax): the modules their files import, resolved to the repository's own files, and in those the
// functions and methods the failing tests call by name.
import { fileURLToPath } from 'node:url';
import type { TestCaseResult } from '../../core/test-report.ts';
import { runPythonScript } from '../python-script.ts';

const SCRIPT = fileURLToPath(new URL('./probe_entry_points.py', import.meta.url));
/** Where a project keeps its importable packages, besides its root. */
const PACKAGE_ROOTS = ['', 'src/', 'lib/'];

/** Reads a repository file (null when absent) and says which files may be probed. */
export interface EntrySources {
  read: (path: string) => Promise<string | null>;
  usable: (path: string) => boolean;
}

/** Path → the `def` lines of the functions the failing tests call there. */
export async function pythonEntryPoints(fixed: readonly TestCaseResult[], sources: EntrySources): Promise<Map<string, Set<number>>> {
  const byFile = new Map<string, Set<string>>();
  for (const test of fixed) {
    if (!test.file?.endsWith('.py')) continue;
    const names = byFile.get(test.file) ?? new Set<string>();
    for (const name of testNames(test.id, test.file)) names.add(name);
    byFile.set(test.file, names);
  }
  const tests: Array<{ source: string; names: string[] }> = [];
  for (const [file, names] of byFile) {
    const source = await sources.read(file);
    if (source !== null) tests.push({ source, names: [...names] });
  }
  const entries = new Map<string, Set<number>>();
  if (tests.length === 0) return entries;
  const found = await ask<{ modules: string[]; called: string[] }>({ mode: 'tests', tests });
  if (!found || found.called.length === 0) return entries;
  for (const path of await moduleFiles(found.modules, sources)) {
    const source = await sources.read(path);
    const defs = source === null ? null : await ask<{ lines: number[] }>({ mode: 'defs', source, called: found.called });
    if (defs && defs.lines.length > 0) entries.set(path, new Set(defs.lines));
  }
  return entries;
}

/** `tests/t.py::TestX::test_a[1]` → `TestX.test_a` and `test_a`. */
function testNames(id: string, file: string): string[] {
  const parts = id.slice(id.indexOf(file) + file.length).split('::').filter(Boolean).map((part) => part.replace(/\[.*$/, ''));
  const last = parts.at(-1);
  return last ? [...new Set([parts.join('.'), last])] : [];
}

/** The repository's files for the imported modules (`a.b` → `a/b.py` or `a/b/__init__.py`, at the root, in src/ or lib/). */
async function moduleFiles(modules: readonly string[], sources: EntrySources): Promise<string[]> {
  const files: string[] = [];
  for (const name of modules) {
    const base = name.split('.').join('/');
    for (const root of PACKAGE_ROOTS) {
      const hit = await firstPresent([`${root}${base}.py`, `${root}${base}/__init__.py`], sources);
      if (hit) {
        files.push(hit);
        break;
      }
    }
  }
  return [...new Set(files)];
}

async function firstPresent(paths: readonly string[], sources: EntrySources): Promise<string | null> {
  for (const path of paths) if (sources.usable(path) && (await sources.read(path)) !== null) return path;
  return null;
}

async function ask<T>(request: unknown): Promise<T | null> {
  const out = await runPythonScript(SCRIPT, JSON.stringify(request));
  try {
    return out === null ? null : (JSON.parse(out) as T);
  } catch {
    return null;
  }
}
