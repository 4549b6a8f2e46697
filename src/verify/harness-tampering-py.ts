// Harness tampering in a patch's added Python code: harness_tampering.py reads each file with
// Python's own parser (ast), never running it, and reports the nodes on added lines.
import { fileURLToPath } from 'node:url';
import type { TamperHit } from './tamper-hit.ts';
import { runPythonScript } from './python-script.ts';

const SCRIPT = fileURLToPath(new URL('./harness_tampering.py', import.meta.url));

export interface PythonFile {
  path: string;
  source: string;
  added: ReadonlySet<number>;
}

export interface PythonTampering {
  hits: Map<string, TamperHit[]>;
  /** Files Python could not parse, or all of them when python3 could not be run. */
  unparsed: string[];
}

export async function findPythonTampering(files: PythonFile[]): Promise<PythonTampering> {
  if (files.length === 0) return { hits: new Map(), unparsed: [] };
  const input = JSON.stringify({ files: files.map((f) => ({ path: f.path, source: f.source, lines: [...f.added] })) });
  const out = await runPythonScript(SCRIPT, input);
  try {
    const parsed = JSON.parse(out ?? '') as { hits: Record<string, TamperHit[]>; unparsed: string[] };
    return { hits: new Map(Object.entries(parsed.hits)), unparsed: parsed.unparsed };
  } catch {
    return { hits: new Map(), unparsed: files.map((f) => f.path) };
  }
}
