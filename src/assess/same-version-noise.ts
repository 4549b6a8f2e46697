// What differs between two runs of the SAME version of the program is not a behaviour change
// (docs/design.md §3.3): an identity hash (`Object@3f2a`), a timestamp, a random id, a duration, the
// order of a set's or a map's keys. The suite runs twice on the original (and twice on the patched
// version when the budget allows); per call (as compare-records.ts pairs them) the two results are
// compared, and where they differ the difference becomes a rule that the comparison of the versions
// applies to that call:
// - **masked**: the two texts differ only in value tokens (letters, digits, `_ . : + -`) between
//   identical structure: the differing tokens become wildcards, and two results of that call are
//   alike when both fit the pattern: the parts equal in both same-version runs are compared, the
//   rest is not. A real change beside the noise (another field, another length) still shows.
// - **order**: the two texts hold the same tokens in another order: results are compared as bags of tokens.
// - **unstable**: anything else (the structure itself varies): the call is left out of the
//   comparison and counted, since no part of it can be told apart from chance.
// Masking keeps what can still be compared; dropping is for what cannot, and is counted so that a
// reviewer sees how much was left out.

/** Per call key: the rules learnt from same-version runs, and the keys left out. */
export interface Noise {
  /** Whether two results of the call `key` are the same behaviour: equal, or alike under a rule learnt for it. */
  same(key: string, a: string, b: string): boolean;
  /** Calls whose results varied between runs of one version in a way no rule can mask. */
  unstable: ReadonlySet<string>;
  /** Calls whose varying parts were masked (or compared regardless of order). */
  masked: ReadonlySet<string>;
}

interface Rule {
  alike(a: string, b: string): boolean;
}

/** Tokens a wildcard may stand for: the characters of ids, hashes, numbers, timestamps and durations. */
const VALUE_TOKEN = /^[A-Za-z0-9_.:+-]+$/;
const WILDCARD = '[A-Za-z0-9_.:+\\-]*';
/** Past this many differing tokens on a side, the call is unstable: a comparison of what is left would say little. */
const MAX_MIDDLE = 200;

export const NO_NOISE: Noise = { same: (_key, a, b) => a === b, unstable: new Set(), masked: new Set() };

/**
 * A date and time as ISO 8601 writes it (`Date#toISOString`, `datetime.isoformat`): one value, so that
 * two runs a millisecond apart teach that the whole of it varies, not only its last digits (a later
 * run, a second or a minute on, then differs in digits the two runs shared).
 */
const DATE_TIME = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?`;
const TOKEN = new RegExp(`${DATE_TIME}|[A-Za-z0-9_]+|[^A-Za-z0-9_]`, 'gu');

/** Dates and times whole, words and numbers whole, every other character alone. */
export function tokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Collects what differs between two same-version results of each call. */
export class NoiseLearner {
  private readonly rules = new Map<string, Rule[]>();
  private readonly dropped = new Set<string>();

  /** Two results of call `key` from runs of one version. */
  learn(key: string, a: string, b: string): void {
    if (a === b || this.dropped.has(key)) return;
    const known = this.rules.get(key);
    if (known?.some((rule) => rule.alike(a, b))) return;
    const rule = ruleFor(a, b);
    if (!rule) {
      this.dropped.add(key);
      this.rules.delete(key);
      return;
    }
    this.rules.set(key, [...(known ?? []), rule]);
  }

  /** Calls one run made a different number of times with other results: the set of results varies, nothing can be paired. */
  drop(key: string): void {
    this.dropped.add(key);
    this.rules.delete(key);
  }

  noise(): Noise {
    const rules = this.rules;
    return {
      same: (key, a, b) => a === b || (rules.get(key)?.some((rule) => rule.alike(a, b)) ?? false),
      unstable: new Set(this.dropped),
      masked: new Set(rules.keys()),
    };
  }
}

/** The rule that makes `a` and `b` alike, or null when none can without masking structure. */
export function ruleFor(a: string, b: string): Rule | null {
  const x = tokens(a);
  const y = tokens(b);
  const mask = maskPattern(x, y);
  if (mask) {
    const pattern = new RegExp(`^${mask}$`, 'u');
    return { alike: (p, q) => pattern.test(p) && pattern.test(q) };
  }
  if (bag(x) === bag(y)) return { alike: (p, q) => bag(tokens(p)) === bag(tokens(q)) };
  return null;
}

function bag(list: string[]): string {
  return [...list].sort().join('\u0000');
}

/**
 * The tokens equal in both, in order (their longest common subsequence), with a wildcard for each
 * gap between them; null when a gap holds anything but value tokens (the structure differs).
 */
function maskPattern(x: string[], y: string[]): string | null {
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const xm = x.slice(head, x.length - tail);
  const ym = y.slice(head, y.length - tail);
  if (xm.length > MAX_MIDDLE || ym.length > MAX_MIDDLE) return null;
  const parts: string[] = x.slice(0, head).map(escape);
  let gap = false;
  const open = (left: string[], right: string[]): boolean => {
    if (left.length === 0 && right.length === 0) return true;
    if (![...left, ...right].every((t) => VALUE_TOKEN.test(t))) return false;
    if (!gap) parts.push(WILDCARD);
    gap = true;
    return true;
  };
  let i = 0;
  let j = 0;
  for (const [p, q] of commonPairs(xm, ym)) {
    if (!open(xm.slice(i, p), ym.slice(j, q))) return null;
    parts.push(escape(xm[p] ?? ''));
    gap = false;
    i = p + 1;
    j = q + 1;
  }
  if (!open(xm.slice(i), ym.slice(j))) return null;
  parts.push(...x.slice(x.length - tail).map(escape));
  return parts.join('');
}

/** Index pairs of a longest common subsequence of two token lists (a plain dynamic programme: the lists are short). */
function commonPairs(x: string[], y: string[]): Array<[number, number]> {
  const width = y.length + 1;
  const table = new Uint16Array((x.length + 1) * width);
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      table[i * width + j] =
        x[i] === y[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if ((table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0)) i++;
    else j++;
  }
  return pairs;
}

function escape(token: string): string {
  return token.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
