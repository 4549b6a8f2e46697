// Expected and actual values of a failed jest test: `Expected: 2` / `Received: 3` under its
// matchers, `Expected value to strictly be equal to:` with the values below when the test used
// node's assert.
import { expectReceivedValues, firstValues, nodeAssertValues, type AssertionValues } from '../assertion-values.ts';

export function jestValues(message: string): AssertionValues | null {
  return firstValues(message, [expectReceivedValues, nodeAssertValues]);
}
