// Lines of generated code traced back to the sources they were generated from. A test command that
// builds before it tests (cssstyle's `npm run generate && node --test` bundles lib/properties/*.js
// into lib/generated/properties.js) runs code from files the repository does not hold: coverage
// points there, and a candidate written there would be overwritten by the next build. Generators that
// copy statements (bundlers, babel's generator, concatenation) keep each statement's text, so a
// covered line of such a file is traced to the source lines that carry the same code.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ScoredLine {
  file: string;
  line: number;
  score: number;
}

/** Above this many places, a line of code is too common (`return result;`) to say where it came from. */
const MAX_ORIGINS = 3;
/** Shorter lines (`}`, `break;`, `i++;`) say nothing of where they came from. */
const MIN_CODE_LENGTH = 12;

/** A line's code without layout: what a generator that reprints the code keeps. */
export function codeKey(text: string): string | null {
  const code = text.trim().replace(/\s+/g, ' ').replace(/[;,]$/, '');
  return code.length >= MIN_CODE_LENGTH && /[A-Za-z_$]/.test(code) && !code.startsWith('//') ? code : null;
}

/**
 * The scores of lines in files the repository does not hold, moved to the source lines with the same
 * code (in `sources`, the repository's own source files of the same language). A source line reached
 * from several generated lines keeps the highest score; a line with more than MAX_ORIGINS origins is
 * left out.
 */
export async function traceGeneratedLines(
  root: string,
  generated: readonly ScoredLine[],
  sources: readonly string[],
): Promise<ScoredLine[]> {
  if (generated.length === 0) return [];
  const read = async (file: string) => (await readFile(join(root, file), 'utf8').catch(() => '')).split('\n');
  const wanted = new Map<string, number>();
  const generatedText = new Map<string, string[]>();
  for (const { file, line, score } of generated) {
    if (!generatedText.has(file)) generatedText.set(file, await read(file));
    const key = codeKey(generatedText.get(file)?.[line - 1] ?? '');
    if (key) wanted.set(key, Math.max(wanted.get(key) ?? 0, score));
  }
  if (wanted.size === 0) return [];
  const origins = new Map<string, { file: string; line: number }[]>();
  for (const file of sources) {
    (await read(file)).forEach((text, i) => {
      const key = codeKey(text);
      if (key && wanted.has(key)) origins.set(key, [...(origins.get(key) ?? []), { file, line: i + 1 }]);
    });
  }
  const out: ScoredLine[] = [];
  for (const [key, places] of origins) {
    if (places.length > MAX_ORIGINS) continue;
    for (const place of places) out.push({ ...place, score: wanted.get(key) ?? 0 });
  }
  return out;
}
