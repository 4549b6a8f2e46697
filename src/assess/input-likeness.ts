// Whether a changed generated input belongs with the failing tests' inputs (compare-records.ts): a
// change there is the fix's own, one elsewhere is what the patch changed besides.
import { editDistance } from '../core/edit-distance.ts';
import { numericDistance } from './numeric-distance.ts';

/** Inputs are compared edit by edit over their first this many characters; past them, each character one has more counts as one edit. */
const COMPARED = 400;

/**
 * A changed generated input is like the failing tests' inputs when it is at least as close to one
 * of them as to the passing call it was generated from: `'C:\\/x'`, made from a passing `'C:/x'`, is
 * as close to the failing `'C:\\x'` and belongs to the fix's own class; `'usr/lib'`, made from a
 * passing `'/usr/lib'`, is far from every failing input and does not. Inputs that differ only in
 * numbers are as close as the numbers (`-95` is nearer to `20` than to `95`); others by edit distance.
 */
export function likeFailing(args: string, base: string, failing: readonly string[]): boolean {
  const numbersFromBase = numericDistance(args, base);
  const textFromBase = textDistance(args, base);
  return failing.some((input) => {
    const numbersFromInput = numbersFromBase === null ? null : numericDistance(args, input);
    return numbersFromInput !== null && numbersFromBase !== null
      ? numbersFromInput <= numbersFromBase
      : textDistance(args, input) <= textFromBase;
  });
}

/**
 * The edit distance of two canonical argument texts. Only the few generated inputs whose result
 * changed are measured, against the failing tests' own, so a plain dynamic programme is enough.
 */
function textDistance(a: string, b: string): number {
  const x = a.slice(0, COMPARED);
  const y = b.slice(0, COMPARED);
  return editDistance(x, y) + Math.abs(a.length - x.length - (b.length - y.length));
}
