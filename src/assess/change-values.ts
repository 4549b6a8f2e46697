// The values a patch's changed lines name (docs/design.md §3.3): the string and number literals on
// the lines any plausible patch removed or added, and the property names they read. The probes
// generate inputs from them (js/probe-inputs.cjs, python/fixloop_probe_inputs.py): a change that
// compares with `'https:'` or `10` is seen at `'HTTPS:'` and at `9` and `11`, the other side of the
// comparison, where the suite's own inputs rarely go. Every version is probed with the same values,
// taken from every patch, so their generated inputs compare.
import type { StructuredPatch } from 'diff';
import { lineChanges, type PatchedVersion } from './patched-versions.ts';

export interface ChangeValues {
  strings: string[];
  numbers: number[];
  /** Property names the changed lines read (`options.windows` → `windows`), for an options object. */
  keys: string[];
}

/** Few, so the inputs made from them stay a small part of each call's budget. */
const MAX_STRINGS = 8;
const MAX_NUMBERS = 8;
const MAX_KEYS = 6;
const MAX_STRING_LENGTH = 64;

export const NO_CHANGE_VALUES: ChangeValues = { strings: [], numbers: [], keys: [] };

/** A member every string, array, object or function has: reading it names no option. */
function builtinMember(name: string): boolean {
  return [String.prototype, Array.prototype, Object.prototype, Function.prototype].some((proto) => name in proto);
}

/** A file's changed hunks, as one version's diff against the original has them. */
export interface ChangedFile {
  path: string;
  hunks: StructuredPatch['hunks'];
}

/** The values of the changed lines (`+` and `-`) of every file, in order of first appearance, capped. */
export function changeValues(files: Iterable<ChangedFile>): ChangeValues {
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const keys = new Set<string>();
  for (const { path, hunks } of files)
    for (const line of hunks.flatMap((hunk) => hunk.lines)) {
      if (!line.startsWith('+') && !line.startsWith('-')) continue;
      const found = literalsOf(line.slice(1), /\.pyi?$/.test(path));
      for (const s of found.strings) if (s.length > 0 && s.length <= MAX_STRING_LENGTH) strings.add(s);
      for (const n of found.numbers) numbers.add(n);
      for (const k of found.members) if (!builtinMember(k)) keys.add(k);
    }
  return {
    strings: [...strings].slice(0, MAX_STRINGS),
    numbers: [...numbers].slice(0, MAX_NUMBERS),
    keys: [...keys].slice(0, MAX_KEYS),
  };
}

/** The values of every version's changes to the probed files (`probed(path)`), against `originals`. */
export function valuesOfVersions(
  originals: ReadonlyMap<string, string | null>,
  versions: readonly PatchedVersion[],
  probed: (path: string) => boolean,
): ChangeValues {
  const files: ChangedFile[] = [];
  for (const version of versions)
    for (const [path, text] of version.files) {
      const before = originals.get(path);
      if (probed(path) && typeof before === 'string' && text !== null)
        files.push({ path, hunks: lineChanges(before, text).hunks });
    }
  return changeValues(files);
}

const QUOTES = new Set(["'", '"', '`']);
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };

/**
 * The literals of one line of JavaScript, TypeScript or Python, read by a small scanner: a string
 * (a template with `${` and a Python f-string are not values), a number (decimal or hex, not a
 * digit inside a name), a name after `.` or `?.`; a comment ends the line.
 */
export function literalsOf(line: string, python: boolean): { strings: string[]; numbers: number[]; members: string[] } {
  const strings: string[] = [];
  const numbers: number[] = [];
  const members: string[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i] ?? '';
    if (python ? c === '#' : line.startsWith('//', i)) break;
    if (QUOTES.has(c) && !(python && c === '`')) {
      const formatted = python && /[fF]$/.test(line.slice(Math.max(0, i - 2), i).replace(/[rRbB]/g, ''));
      const read = readString(line, i);
      if (!formatted && !(c === '`' && read.text.includes('${'))) strings.push(read.text);
      i = read.end;
      continue;
    }
    const before = line[i - 1] ?? '';
    if (/\d/.test(c) && !/[\w$.]/.test(before)) {
      const match = /^(0[xX][\da-fA-F_]+|\d[\d_]*(\.\d+)?([eE][-+]?\d+)?)/.exec(line.slice(i));
      const text = match?.[0] ?? c;
      const value = Number(text.replace(/_/g, ''));
      if (Number.isFinite(value)) numbers.push(value);
      i += text.length;
      continue;
    }
    // `?.` reads a member as `.` does.
    const owner = before === '?' ? (line[i - 2] ?? '') : before;
    if (c === '.' && /[\w$)\]]/.test(owner)) {
      const name = /^[A-Za-z_$][\w$]*/.exec(line.slice(i + 1))?.[0];
      if (name) members.push(name);
    }
    i++;
  }
  return { strings, numbers, members };
}

/** The string opened at `start`, its simple escapes read, and where it ends (the line's end if unclosed). */
function readString(line: string, start: number): { text: string; end: number } {
  const quote = line[start];
  let text = '';
  let i = start + 1;
  while (i < line.length && line[i] !== quote) {
    if (line[i] === '\\' && i + 1 < line.length) {
      const next = line[i + 1] ?? '';
      text += ESCAPES[next] ?? next;
      i += 2;
      continue;
    }
    text += line[i];
    i++;
  }
  return { text, end: i + 1 };
}
