// Is a plausible patch of a real bug correct? The same source as the upstream fix is; any other patch
// is judged by hand once, and the judgement is kept in the bug's meta.json under its patch hash.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { applyPatch, materializeReal, patchHash, type RealBug } from './real-corpus.ts';

export type Correctness = 'yes' | 'no' | 'unjudged';

/** Files' text with blank lines and trailing blanks ignored: a reformatted equal fix is the same fix. */
function normalized(dir: string, files: string[]): string {
  return files
    .map((f) => {
      const text = existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : '<missing>';
      return `${f}\n${text
        .split('\n')
        .map((l) => l.trimEnd())
        .filter(Boolean)
        .join('\n')}`;
    })
    .join('\n\0\n');
}

function changedFiles(patch: string): string[] {
  return [...patch.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1] ?? '').filter(Boolean);
}

export function judgeCorrect(bug: RealBug, patch: string): Correctness {
  const files = [...new Set([...bug.referenceFix.files, ...changedFiles(patch)])];
  const upstream = materializeReal(bug, 'upstream', true);
  const candidate = materializeReal(bug, 'candidate');
  try {
    applyPatch(candidate, patch);
    if (normalized(upstream, files) === normalized(candidate, files)) return 'yes';
  } catch {
    return 'no';
  } finally {
    rmSync(upstream, { recursive: true, force: true });
    rmSync(candidate, { recursive: true, force: true });
  }
  const judgement = bug.judgements.find((j) => j.patchHash === patchHash(patch));
  return judgement ? (judgement.correct ? 'yes' : 'no') : 'unjudged';
}
