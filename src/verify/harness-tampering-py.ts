// Harness tampering in a patch's added Python code: harness_tampering.py reads each file with
// Python's own parser (ast), never running it, and reports the nodes on added lines.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TamperHit } from './tamper-hit.ts';

const SCRIPT = fileURLToPath(new URL('./harness_tampering.py', import.meta.url));
const TIMEOUT_MS = 30_000;

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
  const out = await runPython(input);
  try {
    const parsed = JSON.parse(out ?? '') as { hits: Record<string, TamperHit[]>; unparsed: string[] };
    return { hits: new Map(Object.entries(parsed.hits)), unparsed: parsed.unparsed };
  } catch {
    return { hits: new Map(), unparsed: files.map((f) => f.path) };
  }
}

function runPython(input: string): Promise<string | null> {
  return new Promise((resolve) => {
    // Only what Python needs: fixloop's environment is not the parser's business.
    const child = spawn('python3', ['-I', SCRIPT], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', PYTHONIOENCODING: 'utf-8' }, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stdin.on('error', () => undefined);
    child.on('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? out : null);
    });
    child.stdin.end(input);
  });
}
