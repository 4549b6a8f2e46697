// Expected and actual values of a failed pytest test, from its assertion rewriting: `assert 3 == 2`
// (or `AssertionError: assert 'hello bob!' == 'hello bob'`) where the left side is what the code gave
// and the right side what the test expected, as pytest's own diff reads them (`- expected`, `+ actual`).
import { pair, type AssertionValues } from '../assertion-values.ts';

export function pytestValues(message: string): AssertionValues | null {
  const m = /^(?:AssertionError: )?assert (.+?) == (.+)$/m.exec(message);
  return m ? pair(m[2], m[1]) : null;
}
