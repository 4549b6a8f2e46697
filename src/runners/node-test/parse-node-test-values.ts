// Expected and actual values of a failed `node --test` test. Its spec reporter prints the error's own
// properties after the stack (`actual: 3,` / `expected: 2,`, as util.inspect shows them): the values
// themselves, whatever the message says; else node's assert message.
import { firstValues, nodeAssertValues, pair, type AssertionValues } from '../assertion-values.ts';

/** `actual: 3,` and `expected: 2,` on one line each (a value spread over lines is not taken). */
function errorProperties(text: string): AssertionValues | null {
  const actual = /^\s*actual: (.+?),?$/m.exec(text)?.[1];
  const expected = /^\s*expected: (.+?),?$/m.exec(text)?.[1];
  if (actual === undefined || expected === undefined || /[[{(]$/.test(actual) || /[[{(]$/.test(expected)) return null;
  return pair(expected, actual);
}

export function nodeTestValues(message: string, stack: string): AssertionValues | null {
  return firstValues(stack, [errorProperties]) ?? firstValues(message, [nodeAssertValues]);
}
