// How the failing tests' expected and actual values differ, when their messages show both and every
// difference is of one kind: only whitespace (commander's help lines with a trailing blank), or only
// letter case (sqlparse's `as` for `AS`). Then a value normalized the same way (`.trimEnd()`,
// `.toUpperCase()`) is what the tests ask for, and is tried before the other templates' guesses.
import type { TestCaseResult } from '../../core/test-report.ts';
import { stripAnsi } from '../../formats/strip-ansi.ts';

export type OutputDifference = 'whitespace' | 'case';

/** A diff's header lines, not values: `- Expected  - 2`, `+ Received`, `+ actual - expected`. */
const HEADER = /^[-+] ?(Expected|Received|expected|actual)\b/;
/** One-line forms: chai's `expected 'a' to equal 'b'`, pytest's `assert 'a' == 'b'`, node's `'a' !== 'b'`. */
const ONE_LINE = [
  /expected (['"])(.*?)\1 to (?:deeply |strictly )?equal (['"])(.*?)\3/,
  /assert (['"])(.*?)\1 == (['"])(.*?)\3/,
  /^(['"])(.*?)\1 !== (['"])(.*?)\3$/m,
];

/** Pairs of (expected, actual) values a failure message shows, in either order. */
function valuePairs(message: string): [string, string][] {
  const text = stripAnsi(message);
  const pairs: [string, string][] = [];
  for (const pattern of ONE_LINE) {
    const match = pattern.exec(text);
    if (match) pairs.push([match[2] ?? '', match[4] ?? '']);
  }
  const labelled = /Expected:\s*(.*)\n\s*Received:\s*(.*)/.exec(text);
  if (labelled) pairs.push([labelled[1] ?? '', labelled[2] ?? '']);
  // A line diff: the removed lines and the added lines, paired in order. Their sign is at the block's
  // own indentation; the lines of context are indented further (`  -h, --help` is not a removed line).
  const lines = text.split('\n');
  const margin = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  const removed: string[] = [];
  const added: string[] = [];
  for (const line of lines) {
    const match = /^([-+])(.*)$/.exec(line.slice(margin));
    if (!match || line.slice(0, margin).trim() || HEADER.test(line.trim())) continue;
    (match[1] === '-' ? removed : added).push(match[2] ?? '');
  }
  if (removed.length > 0 && removed.length === added.length) removed.forEach((line, i) => pairs.push([line, added[i] ?? '']));
  return pairs;
}

const squeezed = (s: string) => s.replace(/\s+/g, ' ').trim();

function kindOf(a: string, b: string): OutputDifference | 'other' | null {
  if (a === b) return null;
  if (squeezed(a) === squeezed(b)) return 'whitespace';
  if (a.toLowerCase() === b.toLowerCase()) return 'case';
  return 'other';
}

/** The kind every shown difference of the failing tests is of, or none when they differ otherwise. */
export function outputDifferences(failing: readonly TestCaseResult[]): OutputDifference[] {
  const kinds = new Set<OutputDifference | 'other'>();
  for (const test of failing) {
    // The stack holds the whole failure as printed; the message's lines are trimmed (a trailing blank lost).
    for (const [a, b] of valuePairs(test.stack ?? test.message ?? '')) {
      const kind = kindOf(a, b);
      if (kind) kinds.add(kind);
    }
  }
  if (kinds.has('other') || kinds.size !== 1) return [];
  return [...kinds] as OutputDifference[];
}

/** What each string normalization removes, in JavaScript's and Python's names. */
const REMOVED_BY: Readonly<Record<string, OutputDifference>> = {
  trim: 'whitespace',
  trimEnd: 'whitespace',
  strip: 'whitespace',
  toLowerCase: 'case',
  toUpperCase: 'case',
  lower: 'case',
  upper: 'case',
};

/** Whether calling `method` removes the one kind of difference the failing tests show. */
export function removesShownDifference(method: string, shown: readonly OutputDifference[]): boolean {
  const removed = Object.hasOwn(REMOVED_BY, method) ? REMOVED_BY[method] : undefined;
  return removed !== undefined && shown.includes(removed);
}
