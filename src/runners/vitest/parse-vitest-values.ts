// Expected and actual values of a failed vitest test: `Expected: … / Received: …` for a deep
// equality, chai's `expected 3 to be 2 // Object.is equality` for the rest of its expect, node's
// assert message when the test used node's assert.
import { chaiValues, expectReceivedValues, firstValues, nodeAssertValues, type AssertionValues } from '../assertion-values.ts';

export function vitestValues(message: string): AssertionValues | null {
  return firstValues(message, [expectReceivedValues, nodeAssertValues, chaiValues]);
}
