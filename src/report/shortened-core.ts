// The core of a difference between two texts that hold long values as the probes shorten them
// (js/probe-text.cjs, python/fixloop_probe_canon.py: the first 300 characters, `…`, the last 80,
// `…#` and a hash of the whole). Shortening cuts at a fixed length, so one character more early in
// a value moves both cuts: every such change then differs at the cuts and in the hash too, by
// what the value holds, and no two changes that do the same thing would share a core. Here the
// edits the cuts and the hash made are left out, and what is left is the change itself.
import { diffChars } from 'diff';

/** The hash after a shortened value: it tells values apart, it shows no change a reviewer can read. */
const WHOLE_HASH = /…#[0-9a-f]{8,12}/g;
/** Characters a shortened value keeps of its end, before its hash (both probes keep 80). */
const KEPT_TAIL = 80;

interface Edit {
  removed: string;
  added: string;
  /** Where it starts and ends in the first text, and in the second. */
  before: [number, number];
  after: [number, number];
}

/**
 * The edits from `before` to `after` that shortening did not make, as one key (null when neither
 * text holds a shortened value, or when every edit sits at a cut: the values differ only in what
 * was left out, which the texts cannot show).
 */
export function shortenedCore(before: string, after: string): string | null {
  const [b, a] = [before.replace(WHOLE_HASH, '…#'), after.replace(WHOLE_HASH, '…#')];
  const cutsBefore = cuts(b);
  const cutsAfter = cuts(a);
  if (cutsBefore.length === 0 && cutsAfter.length === 0) return null;
  const kept = edits(b, a).filter((e) => !atCut(e.before, cutsBefore) && !atCut(e.after, cutsAfter));
  return kept.length === 0 ? null : kept.map((e) => `${e.removed}\0${e.added}`).join('\u0001');
}

/**
 * Where a text's shortened values were cut: the `…` between each kept start and kept end (the kept
 * end runs to the value's own end, where `…#` follows). The kept end is KEPT_TAIL characters, or a
 * little more where a Python probe counted characters JavaScript writes as two.
 */
function cuts(text: string): number[] {
  const found: number[] = [];
  for (let marker = text.indexOf('…#'); marker >= 0; marker = text.indexOf('…#', marker + 1)) {
    const junction = text.lastIndexOf('…', marker - KEPT_TAIL - 1);
    if (junction >= 0) found.push(junction, junction + 1);
  }
  return found;
}

/** An edit that touches a cut, or holds one: what moving the cut did, not the change. */
function atCut([start, end]: [number, number], cutsOf: readonly number[]): boolean {
  return cutsOf.some((cut) => cut >= start && cut <= end);
}

/** The two texts' edits, each removal and addition between two shared runs taken as one edit. */
function edits(before: string, after: string): Edit[] {
  const found: Edit[] = [];
  let [atBefore, atAfter] = [0, 0];
  let open: Edit | null = null;
  for (const part of diffChars(before, after)) {
    if (!part.added && !part.removed) {
      if (open) found.push(open);
      open = null;
      atBefore += part.value.length;
      atAfter += part.value.length;
      continue;
    }
    open ??= { removed: '', added: '', before: [atBefore, atBefore], after: [atAfter, atAfter] };
    if (part.removed) {
      open.removed += part.value;
      atBefore += part.value.length;
      open.before[1] = atBefore;
    } else {
      open.added += part.value;
      atAfter += part.value.length;
      open.after[1] = atAfter;
    }
  }
  if (open) found.push(open);
  return found;
}
