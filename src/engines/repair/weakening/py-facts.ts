// The weakening rules' facts of Python files: weakening_facts.py reads them with Python's own parser
// (ast), run as the judge runs its Python reader (src/verify/harness-tampering-py.ts).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChangedRange, SiteFacts } from './site-facts.ts';

const SCRIPT = fileURLToPath(new URL('./weakening_facts.py', import.meta.url));
const TIMEOUT_MS = 20_000;

export interface PythonVersion {
  source: string;
  range: ChangedRange;
}

/** Code points before a UTF-16 offset: what Python counts. */
const codePoints = (source: string, offset: number) => [...source.slice(0, offset)].length;
/** The UTF-16 offset of a code-point offset. */
const utf16 = (source: string, points: number) => [...source].slice(0, points).join('').length;

/** The facts of each version, in order; null for a version that does not parse, or all when python3 could not run. */
export async function pythonFacts(versions: readonly PythonVersion[]): Promise<Array<SiteFacts | null>> {
  if (versions.length === 0) return [];
  const files = versions.map((v) => ({ source: v.source, start: codePoints(v.source, v.range.start), end: codePoints(v.source, v.range.end) }));
  const out = await runPython(JSON.stringify({ files }));
  try {
    const parsed = JSON.parse(out ?? '') as Array<SiteFacts | null>;
    // Offsets back to UTF-16, so a condition's start compares with the other version's as JavaScript's do.
    return versions.map((v, i) => {
      const facts = parsed[i] ?? null;
      if (facts?.condition) facts.condition.start = utf16(v.source, facts.condition.start);
      return facts;
    });
  } catch {
    return versions.map(() => null);
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
