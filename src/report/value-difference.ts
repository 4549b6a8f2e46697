// The part of two values that differs (docs/design.md §3.3, the report): what a reviewer needs of a
// behaviour change is where before and after part, not two dumps that agree on all but a field. An
// object (as the probes write it: `{ a: 1 }`, `Name { a: 1 }`) is shown as the keys whose values
// differ; any other text with the start and end the two share elided, a few characters of context
// kept. The core of a difference, with nothing shared kept, is what rows of one pattern share.
import { shortenedCore } from './shortened-core.ts';

/** Characters of shared text kept beside a difference, so that it reads in context. */
const CONTEXT = 24;

/** Top-level `key: value` entries of an object as the probes write it, or null for anything else. */
export function objectEntries(text: string): { name: string; entries: Map<string, string> } | null {
  const m = /^([\w$.]+ )?\{ ([\s\S]*) \}$/.exec(text);
  if (!m) return null;
  const entries = new Map<string, string>();
  for (const part of topLevelParts(m[2] ?? '')) {
    const colon = part.indexOf(': ');
    if (colon <= 0) return null;
    entries.set(part.slice(0, colon), part.slice(colon + 2));
  }
  return { name: m[1] ?? '', entries };
}

/** `a, [b, c], 'd, e'` → its top-level parts: brackets and quotes keep their commas. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if ('[{('.includes(ch)) depth++;
    else if (']})'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0 && text[i + 1] === ' ') {
      parts.push(text.slice(start, i));
      start = i + 2;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Two objects as the keys whose values differ (a key one lacks shown as `<absent>`); null when not two objects that do. */
function differingKeys(before: string, after: string): [string, string] | null {
  const [a, b] = [objectEntries(before), objectEntries(after)];
  if (!a || !b || a.name !== b.name) return null;
  const keys = [...new Set([...a.entries.keys(), ...b.entries.keys()])].filter((k) => a.entries.get(k) !== b.entries.get(k));
  // The same entries in another order: the difference is the order, which the whole text shows.
  if (keys.length === 0) return null;
  const elided = keys.length < Math.max(a.entries.size, b.entries.size) ? ', …' : '';
  // A nested object that differs is shown the same way: `{ res: { status: 500, … }, … }`.
  const pairs = keys.map((k) => {
    const [x, y] = [a.entries.get(k), b.entries.get(k)];
    const inner = x !== undefined && y !== undefined ? differingKeys(x, y) : null;
    return [`${k}: ${inner?.[0] ?? x ?? '<absent>'}`, `${k}: ${inner?.[1] ?? y ?? '<absent>'}`];
  });
  const side = (i: 0 | 1) => `${a.name}{ ${pairs.map((p) => p[i]).join(', ')}${elided} }`;
  return [side(0), side(1)];
}

/** How many characters two texts share at their start, and at their end (not overlapping it). */
function sharedEnds(a: string, b: string): { head: number; tail: number } {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { head, tail };
}

/** Before and after as the part that differs: differing keys of two objects, or the text with shared ends elided. */
export function differingParts(before: string, after: string): [string, string] {
  const keys = differingKeys(before, after);
  if (keys) return keys;
  const { head, tail } = sharedEnds(before, after);
  const from = head > CONTEXT + 1 ? head - CONTEXT : 0;
  const to = tail > CONTEXT + 1 ? tail - CONTEXT : 0;
  const cut = (text: string) => `${from ? '…' : ''}${text.slice(from, text.length - to)}${to ? '…' : ''}`;
  return [cut(before), cut(after)];
}

/**
 * What a change does, with nothing the two values share: `'a/b'` → `'a/b/'` and `'c'` → `'c/'` both
 * insert `/` (the core `` → `/`). Two changes of one function with the same core are one pattern.
 */
export function changeCore(before: string, after: string): string {
  const keys = differingKeys(before, after);
  if (keys) return `${keys[0]}\0${keys[1]}`;
  const shortened = shortenedCore(before, after);
  if (shortened !== null) return shortened;
  const { head, tail } = sharedEnds(before, after);
  return `${before.slice(head, before.length - tail)}\0${after.slice(head, after.length - tail)}`;
}
