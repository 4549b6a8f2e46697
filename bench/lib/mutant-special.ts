// The special case (issue 47's "a fix generalizes; a special case does not"): the upstream fix kept
// only where a value equals a literal of the failing tests, the buggy code everywhere else. On a
// one-line change, the part of the line the fix changes becomes `(v === lit ? fixed : buggy)` (in
// Python `(fixed if v == lit else buggy)`), for each identifier `v` the line reads and each literal
// the fix's tests add. It passes the failing tests when the value at that point is their literal, and
// is wrong on every other input: the wrong patch that answers the tests, not the bug.
import type { TextEdit } from '../../src/engines/repair/candidate.ts';

export interface SpecialCase {
  line: number;
  edits: TextEdit[];
  description: string;
}

const MAX_LITERALS = 4;
const MAX_NAMES = 2;

/** String and number literals the tests' patch adds, longest first (the most specific), at most a few. */
export function testLiterals(testsPatch: string): string[] {
  const added = testsPatch
    .split('\n')
    .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
    // A test's title, a module's name and a directive are no input of the code under test.
    .filter((l) => !/^\+\s*(it|test|describe|suite|def|import|from)\b|require\(|['"]use strict['"]/.test(l))
    .join('\n');
  const found = [...added.matchAll(/'(?:[^'\\\n]|\\.){1,60}'|"(?:[^"\\\n]|\\.){1,60}"|\b\d+(?:\.\d+)?\b/g)].map((m) => m[0]);
  return [...new Set(found)].sort((a, b) => b.length - a.length).slice(0, MAX_LITERALS);
}

const KEYWORDS = new Set([
  'if',
  'else',
  'return',
  'const',
  'let',
  'var',
  'function',
  'new',
  'typeof',
  'instanceof',
  'in',
  'of',
  'true',
  'false',
  'null',
  'undefined',
  'this',
  'and',
  'or',
  'not',
  'is',
  'None',
  'True',
  'False',
  'def',
  'elif',
  'for',
  'while',
  'self',
]);

const OPENERS = '([{';
const CLOSERS = ')]}';

/** Where the expression around `at` starts: after the enclosing bracket, `,` `;`, a keyword or an assignment. */
function expressionStart(line: string, at: number): number {
  let depth = 0;
  let i = at;
  for (; i > 0; i--) {
    const ch = line[i - 1] ?? '';
    if (CLOSERS.includes(ch)) depth++;
    else if (OPENERS.includes(ch) && depth-- === 0) break;
    else if ((ch === ',' || ch === ';') && depth === 0) break;
  }
  const lead =
    /^\s*(?:(?:if|elif|while|return|await|not|yield|case)\s+|(?:(?:const|let|var)\s+)?[\w$.[\]'"]+\s*(?:[-+*/%|&?]{0,2})=(?!=)\s*)?/.exec(
      line.slice(i, at),
    );
  return i + (lead?.[0].length ?? 0);
}

/** Where the expression around `at` ends: before the enclosing bracket, `,` `;`, or a Python block's `:`. */
function expressionEnd(line: string, at: number): number {
  let depth = 0;
  let i = at;
  for (; i < line.length; i++) {
    const ch = line[i] ?? '';
    if (OPENERS.includes(ch)) depth++;
    else if (CLOSERS.includes(ch) && depth-- === 0) break;
    else if ((ch === ',' || ch === ';') && depth === 0) break;
    else if (ch === ':' && depth === 0 && /^:\s*(#.*)?$/.test(line.slice(i))) break;
  }
  return i;
}

/** The names a piece of code reads as values: `a.b.c(x)` reads `a.b` (the receiver) and `x`. */
function valuesRead(code: string): string[] {
  return [...code.matchAll(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)].flatMap((m) => {
    const called = code[(m.index ?? 0) + m[0].length] === '(';
    const name = called ? m[0].split('.').slice(0, -1).join('.') : m[0];
    return name && !KEYWORDS.has(name.split('.')[0] ?? name) ? [name] : [];
  });
}

/**
 * Special cases of one changed line: `buggy` and `fixed` are its two versions, `at` where the fixed
 * one starts in the fixed source; the edits apply to the fixed source.
 */
export function specialCases(
  buggy: string,
  fixed: string,
  at: number,
  line: number,
  literals: readonly string[],
  python: boolean,
): SpecialCase[] {
  let head = 0;
  while (head < buggy.length && head < fixed.length && buggy[head] === fixed[head]) head++;
  let tail = 0;
  while (
    tail < buggy.length - head &&
    tail < fixed.length - head &&
    buggy[buggy.length - 1 - tail] === fixed[fixed.length - 1 - tail]
  )
    tail++;
  // The whole expression the change is in (`x > max` for `>` → `>=`): out to the bracket, comma or
  // semicolon that encloses it, a statement's keyword or an assignment left out.
  head = expressionStart(buggy, head);
  tail = buggy.length - expressionEnd(buggy, buggy.length - tail);
  if (tail > fixed.length - head) return [];
  const oldMid = buggy.slice(head, buggy.length - tail).trim();
  const newMid = fixed.slice(head, fixed.length - tail).trim();
  if (!oldMid || !newMid) return [];
  // Values the changed part reads first (a method called is its receiver), then the rest of the line's.
  const names = [...new Set([...valuesRead(newMid), ...valuesRead(fixed)])].slice(0, MAX_NAMES);
  const middle = fixed.slice(head, fixed.length - tail);
  const start = at + head + (middle.length - middle.trimStart().length);
  const end = start + newMid.length;
  return names.flatMap((name) =>
    literals.map((lit) => {
      const text = python ? `(${newMid} if ${name} == ${lit} else ${oldMid})` : `(${name} === ${lit} ? ${newMid} : ${oldMid})`;
      return { line, edits: [{ start, end, text }], description: `the fix only where \`${name}\` is \`${lit}\`` };
    }),
  );
}
