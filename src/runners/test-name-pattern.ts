// How the runners that select tests by name are given the failing tests' names: as one JavaScript
// RegExp, an unanchored alternation that each runner matches against its tests' full names.
import { CHECKOUT, type TestCaseResult } from '../core/test-report.ts';

export function escapeRegExp(value: string): string {
  // Control characters as `\xHH`: a test named after a NUL byte (ufo's `\0javascript:` cases) cannot
  // be passed to a process at all, and the runners read the pattern as a JavaScript RegExp.
  return value
    .replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
    .replace(/\p{Cc}/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * An unanchored alternation of the failing tests' own names: runners match it against full names. A
 * name that held the path of the checkout it ran in (src/gate/checkout-neutral.ts) matches any path there.
 */
export function namePattern(failing: TestCaseResult[]): string {
  return [...new Set(failing.map((t) => escapeRegExp(t.name).replaceAll(CHECKOUT, '.+')))].sort().join('|');
}

/** The failing tests' files, sorted, when every one of them names its file (else null). */
export function failingFiles(failing: TestCaseResult[]): string[] | null {
  const files = [...new Set(failing.map((t) => t.file))];
  if (files.some((f) => !f)) return null;
  return (files as string[]).sort();
}
