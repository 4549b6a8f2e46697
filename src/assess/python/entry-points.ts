// Where the failing tests of a Python project enter the program: the repository's own modules their
// files import (resolved as localization resolves them, src/core/imported-files.ts), and in those the
// functions and methods the failing tests call by name (entry_points.py reads the syntax).
import { fileURLToPath } from 'node:url';
import type { TestCaseResult } from '../../core/test-report.ts';
import { runPythonScript } from '../../verify/python-script.ts';
import type { EntrySources } from '../entry-sources.ts';

const SCRIPT = fileURLToPath(new URL('./entry_points.py', import.meta.url));

/** Path → the `def` lines of the functions the failing tests call there. */
export async function pythonEntryPoints(
  fixed: readonly TestCaseResult[],
  sources: EntrySources,
): Promise<Map<string, Set<number>>> {
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
  const found = await ask<{ called: string[] }>({ mode: 'tests', tests });
  if (!found || found.called.length === 0) return entries;
  for (const path of await sources.imported([...byFile.keys()], 1)) {
    if (!path.endsWith('.py')) continue;
    const source = await sources.read(path);
    const defs = source === null ? null : await ask<{ lines: number[] }>({ mode: 'defs', source, called: found.called });
    if (defs && defs.lines.length > 0) entries.set(path, new Set(defs.lines));
  }
  return entries;
}

/** `tests/t.py::TestX::test_a[1]` → `TestX.test_a` and `test_a`. */
function testNames(id: string, file: string): string[] {
  const parts = id
    .slice(id.indexOf(file) + file.length)
    .split('::')
    .filter(Boolean)
    .map((part) => part.replace(/\[.*$/, ''));
  const last = parts.at(-1);
  return last ? [...new Set([parts.join('.'), last])] : [];
}

async function ask<T>(request: unknown): Promise<T | null> {
  const out = await runPythonScript(SCRIPT, JSON.stringify(request));
  try {
    return out === null ? null : (JSON.parse(out) as T);
  } catch {
    return null;
  }
}
