// Harness tampering in a patch's added Python code: harness_tampering.py reads each file's bytes as
// Python does (its coding cookie) with Python's own parser (ast), never running it, and reports the
// nodes on added lines, and each file it could not read with why.
import { fileURLToPath } from 'node:url';
import type { TamperHit } from './tamper-hit.ts';
import { runPythonScript } from './python-script.ts';

const SCRIPT = fileURLToPath(new URL('./harness_tampering.py', import.meta.url));

export interface PythonFile {
  path: string;
  /** The file's bytes: Python decodes them by their coding cookie, not fixloop. */
  source: Buffer;
  added: ReadonlySet<number>;
}

export interface Unreadable {
  path: string;
  why: string;
}

export interface PythonTampering {
  hits: Map<string, TamperHit[]>;
  /** Files Python could not read, with why (every file, when python3 could not be run). */
  unreadable: Unreadable[];
}

/** `env`: the runners' environment variables, as patterns Python's `re` reads too. */
export async function findPythonTampering(files: PythonFile[], env: readonly RegExp[]): Promise<PythonTampering> {
  if (files.length === 0) return { hits: new Map(), unreadable: [] };
  const input = JSON.stringify({
    files: files.map((f) => ({ path: f.path, source: f.source.toString('base64'), lines: [...f.added] })),
    env: env.map((p) => p.source),
  });
  const out = await runPythonScript(SCRIPT, input);
  try {
    const parsed = JSON.parse(out ?? '') as { hits: Record<string, TamperHit[]>; unreadable: Unreadable[] };
    return { hits: new Map(Object.entries(parsed.hits)), unreadable: parsed.unreadable };
  } catch {
    return { hits: new Map(), unreadable: files.map((f) => ({ path: f.path, why: 'python3 could not run the check on it' })) };
  }
}
