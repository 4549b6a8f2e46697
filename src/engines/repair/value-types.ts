// The kinds of values a failing test is about, when its name shows them: table-driven tests name a
// case after its input (`/?foo=1 with {"foo":true,"bar":false}`). A fix for "X is ignored when it is
// a boolean" widens a type check to that type, and the name is the only place the type is written.
// Only the literals that say their type: numbers and strings are in too many names to mean one.
import type { TestCaseResult } from '../../core/test-report.ts';

const KINDS: readonly [RegExp, string][] = [
  [/\b(true|false)\b/, 'boolean'],
  [/\bnull\b/, 'object'],
  [/\bundefined\b/, 'undefined'],
];

/** `typeof` names of the values the failing tests' names write out, in a fixed order. */
export function valueTypesInTests(failing: readonly TestCaseResult[]): string[] {
  const names = failing.map((t) => t.name).join('\n');
  return KINDS.filter(([pattern]) => pattern.test(names)).map(([, kind]) => kind);
}
