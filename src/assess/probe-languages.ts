// The languages the assessment probes, in one list, and which one reads a file. Adding a language is
// a folder beside this file, exporting its `ProbeLanguage` (probe-language.ts), and one line here;
// the rest of the assessment asks this list, never a language by name.
import { jsLanguage } from './js/js-language.ts';
import type { ProbeLanguage } from './probe-language.ts';
import { pythonLanguage } from './python/python-language.ts';

export type { ProbeLanguage } from './probe-language.ts';

/** In the order their entry points are taken and a message names them. */
export const PROBE_LANGUAGES: readonly ProbeLanguage[] = [jsLanguage, pythonLanguage];

/** The language whose instrumentation reads the file at `path`; null when none does. */
export function probeLanguageOf(path: string): ProbeLanguage | null {
  return PROBE_LANGUAGES.find((language) => language.reads(path)) ?? null;
}

/** Whether the assessment can probe the file: a language reads it, and no language calls it installed or generated code. */
export function probeable(path: string): boolean {
  return probeLanguageOf(path) !== null && !PROBE_LANGUAGES.some((language) => language.generated(path));
}

/** What the assessment can read, as a message lists it: `JavaScript, TypeScript or Python`. */
export function probedKinds(): string {
  const names = PROBE_LANGUAGES.flatMap((language) => language.names);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
}
