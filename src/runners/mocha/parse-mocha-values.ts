// Expected and actual values of a failed mocha test: node's assert message (`3 !== 2`), or chai's
// `expected 'hello bob!' to equal 'hello bob'`. mocha's own `+ expected - actual` diff below it is
// not read: it prints strings without their quotes, so `2` and `'2'` would look the same.
import { chaiValues, firstValues, nodeAssertValues, type AssertionValues } from '../assertion-values.ts';

export function mochaValues(message: string): AssertionValues | null {
  return firstValues(message, [nodeAssertValues, chaiValues]);
}
