// The weakening rules' facts of Python files: weakening_facts.py reads them with Python's own parser
// (ast), run as the judge runs its Python reader (src/verify/harness-tampering-py.ts).
import { fileURLToPath } from 'node:url';
import type { ChangedRange, SiteFacts } from './site-facts.ts';
import { runPythonScript } from '../../../verify/python-script.ts';

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
  const files = versions.map((v) => ({
    source: v.source,
    start: codePoints(v.source, v.range.start),
    end: codePoints(v.source, v.range.end),
  }));
  const out = await runPythonScript(SCRIPT, JSON.stringify({ files }), TIMEOUT_MS);
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
