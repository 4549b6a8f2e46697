// The shapes in which test runners spell out a failed comparison, shared by the runners that print
// them: node's assert (node --test, mocha, jest and vitest all show its message), jest's and vitest's
// `Expected: … / Received: …`, and chai's `expected X to equal Y` (mocha with chai, vitest). Each
// runner's own parse-<runner>-values.ts says which of them its output has, and in which order.
import type { TestCaseResult } from '../core/test-report.ts';

export interface AssertionValues {
  expected: string;
  actual: string;
}

/** Longest value kept: a value is shown on one line beside the test's name. */
const MAX_VALUE = 200;

function value(text: string | undefined): string | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  return trimmed.length > MAX_VALUE ? `${trimmed.slice(0, MAX_VALUE - 1)}…` : trimmed;
}

/** Both values, trimmed and cut to one line's length, or null when one is missing. */
export function pair(expected: string | undefined, actual: string | undefined): AssertionValues | null {
  const e = value(expected);
  const a = value(actual);
  return e !== null && a !== null ? { expected: e, actual: a } : null;
}

/** The first shape that finds both values, tried in the order given. */
export function firstValues(text: string, shapes: ((text: string) => AssertionValues | null)[]): AssertionValues | null {
  for (const shape of shapes) {
    const found = shape(text);
    if (found) return found;
  }
  return null;
}

/** Sets `expected` and `actual` on a failed test when its output spelled them out. */
export function attachValues(test: TestCaseResult, values: AssertionValues | null): void {
  if (!values) return;
  test.expected = values.expected;
  test.actual = values.actual;
}

/**
 * node's assert: `Expected values to be strictly equal:` then `3 !== 2` (actual first), or a diff
 * under `+ actual - expected` with one line each. A diff of many lines (a deep object) gives no pair:
 * its lines alone would mislead.
 */
export function nodeAssertValues(text: string): AssertionValues | null {
  if (!/Expected values to be (?:strictly |loosely )?(?:deep-)?equal/.test(text)) return null;
  const inline = /^(\S.*?) (?:!==|!=) (\S.*)$/m.exec(text);
  if (inline) return pair(inline[2], inline[1]);
  const at = text.search(/^\s*\+ actual - expected\s*$/m);
  if (at === -1) return null;
  const lines = text.slice(at).split('\n').slice(1);
  const plus = lines.filter((l) => /^\s*\+ /.test(l));
  const minus = lines.filter((l) => /^\s*- /.test(l));
  if (plus.length !== 1 || minus.length !== 1) return null;
  return pair(minus[0]?.replace(/^\s*- /, ''), plus[0]?.replace(/^\s*\+ /, ''));
}

/** jest and vitest: `Expected: 2` and `Received: 3`, or jest's `Expected value to … :` with the values on the next lines. */
export function expectReceivedValues(text: string): AssertionValues | null {
  const expected = /^\s*Expected:\s+(\S.*)$/m.exec(text)?.[1];
  const received = /^\s*Received:\s+(\S.*)$/m.exec(text)?.[1];
  if (expected !== undefined && received !== undefined) return pair(expected, received);
  // jest on node's assert: `Expected value to strictly be equal to:` / `  2` / `Received:` / `  3`.
  const below = /^\s*Expected value to [^\n]*:\n\s*(\S[^\n]*)\n\s*Received:\n\s*(\S[^\n]*)/m.exec(text);
  return below ? pair(below[1], below[2]) : null;
}

/** chai (mocha with chai, vitest's expect): `expected 3 to equal 2`, `expected 3 to be 2 // Object.is equality`. */
export function chaiValues(text: string): AssertionValues | null {
  // `to be above 2`, `to be a 'string'`: a comparison that names no expected value.
  const m =
    /^(?:\w*Error: )?expected (.+) to (?:deeply |strictly |loosely )?(?:equal|eql|be|deep equal)(?: to)? (?!(?:a|an|above|below|at|within|instanceOf|closeTo|oneOf)\b)(.+?)(?: \/\/ .*)?$/m.exec(
      text,
    );
  return m ? pair(m[2], m[1]) : null;
}
