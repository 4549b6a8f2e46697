// A generated input must not end the program it is tried in, nor hold it: a function that allocates
// as many items as an argument asks (`new Array(parts).fill(0)`) meets the huge number of the
// generated inputs, and the call records a RangeError where an array of 1e9 items once filled the
// heap and ended the test process, the assessment's look with it; a loop an input never ends is
// stopped at the generated call's time limit, and that input gives no record.
import { afterAll, expect, it } from 'vitest';
import { NODE24, instrumentInto, of, records, removeProjects, run, tempProject, writeInto } from './probe-run.ts';

afterAll(removeProjects);

const SPLIT = `'use strict';
function splitEvenly(cents, parts) {
  const shares = new Array(parts).fill(Math.floor(cents / parts));
  shares[0] += cents - shares.reduce((sum, share) => sum + share, 0);
  return shares;
}
module.exports = { splitEvenly };
`;

it('records the huge count as a thrown RangeError, and the program goes on to its end', () => {
  const root = tempProject();
  instrumentInto(root, 'split.cjs', SPLIT);
  writeInto(root, 'main.cjs', "console.log(require('./split.cjs').splitEvenly(10, 3).join(','));\nconsole.log('done');\n");
  const ran = run(NODE24, ['main.cjs'], root);
  expect(ran.stdout).toBe('4,3,3\ndone\n');
  expect(ran.status).toBe(0);
  const generated = of(records(root), 'split.cjs#splitEvenly', 'generated');
  const huge = generated.find((record) => record.args === '10, 1000000000000000');
  expect(huge?.out).toEqual({ threw: expect.stringContaining('RangeError') });
});

const SUM = `'use strict';
function sumTo(n) {
  let total = 0;
  for (let i = 1; i <= n; i++) total += i;
  return total;
}
module.exports = { sumTo };
`;

it.each([
  ['node 20', 'node'],
  ['node 24', NODE24],
])('stops a generated call an input never lets end, records nothing of it, and goes on (%s)', (_label, node) => {
  const root = tempProject();
  instrumentInto(root, 'sum.cjs', SUM);
  writeInto(root, 'main.cjs', "console.log(require('./sum.cjs').sumTo(4));\nconsole.log('done');\n");
  const ran = run(node, ['main.cjs'], root);
  expect(ran.stdout).toBe('10\ndone\n');
  expect(ran.status).toBe(0);
  const generated = of(records(root), 'sum.cjs#sumTo', 'generated').map((record) => record.args);
  // 3, 5, 0 and -1 end; the huge count and Infinity do not, within the call's time.
  expect(generated).toEqual(expect.arrayContaining(['3', '5', '0', '-1']));
  expect(generated).not.toContain('1000000000000000');
  expect(generated).not.toContain('Infinity');
});
