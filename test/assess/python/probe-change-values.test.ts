// The Python probe's inputs made from the change's values (change-values.ts), through the decorator's
// JSON argument, under real pytest: a number either side of the change's constant, and its string
// literal in the other letter case.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, preferResolvedPython, prepare, pytest, records } from './probe-support.ts';

preferResolvedPython();
afterAll(cleanup);

const MODULE = `def shipping_cost(weight, unit="kg"):
    if unit == "lb":
        weight = weight / 2.2
    if weight > 20:
        return 15
    return 5
`;
const TESTS = `from shipping import shipping_cost

def test_light():
    assert shipping_cost(1, "kg") == 5
`;

describe("the Python probe's inputs from the change's values", () => {
  it('calls the function on the other side of the constant and with the literal in the other case', async () => {
    const values = { strings: ["lb's", 'lb'], numbers: [20], keys: [] };
    const prepared = await prepare(
      [
        ['shipping.py', MODULE],
        ['test_shipping.py', TESTS],
      ],
      { 'shipping.py': new Set([4]) },
      values,
    );
    const run = await pytest(prepared.dir);
    expect(run.outcomes).toContain('PASSED test_shipping.py::test_light');
    const generated = (await records(prepared.recordFile)).filter((r) => r.kind === 'generated');
    const outcome = new Map(generated.map((r) => [r.args, r.out]));
    expect(outcome.get("21, 'kg'")).toEqual({ returned: '15' });
    expect(outcome.get("19, 'kg'")).toEqual({ returned: '5' });
    expect(outcome.get("1, 'LB'")).toEqual({ returned: '5' });
    expect(outcome.get("1, 'lb'")).toEqual({ returned: '5' });
  });
});
