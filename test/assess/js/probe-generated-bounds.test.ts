// A generated input must not end the program it is tried in, nor hold it: a function that allocates
// as many items as an argument asks (`new Array(parts).fill(0)`) meets the huge number of the
// generated inputs, and the call records a RangeError where an array of 1e9 items once filled the
// heap and ended the test process, the assessment's look with it; a loop an input never ends is
// stopped at the generated call's time limit, and that input gives no record.
import { afterAll, expect, it } from 'vitest';
import { NODE24, instrumentInto, of, records, removeProjects, run, tempProject, writeInto } from './probe-run.ts';

afterAll(removeProjects);

/**
 * `source` instrumented as `file` and called once by a plain program under `node`, which must print
 * `printed` and `done` and end 0; the generated calls' records of `fn`.
 */
function generatedBy(node: string, file: string, source: string, call: string, printed: string) {
  const root = tempProject();
  instrumentInto(root, file, source);
  writeInto(root, 'main.cjs', `console.log(require('./${file}').${call});\nconsole.log('done');\n`);
  const ran = run(node, ['main.cjs'], root);
  expect(ran.stdout).toBe(`${printed}\ndone\n`);
  expect(ran.status).toBe(0);
  return of(records(root), `${file}#${call.slice(0, call.indexOf('('))}`, 'generated');
}

const SPLIT = `'use strict';
function splitEvenly(cents, parts) {
  const shares = new Array(parts).fill(Math.floor(cents / parts));
  shares[0] += cents - shares.reduce((sum, share) => sum + share, 0);
  return shares;
}
module.exports = { splitEvenly };
`;

it('records the huge count as a thrown RangeError, and the program goes on to its end', () => {
  const generated = generatedBy(NODE24, 'split.cjs', SPLIT, "splitEvenly(10, 3).join(',')", '4,3,3');
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
  const generated = generatedBy(node, 'sum.cjs', SUM, 'sumTo(4)', '10').map((record) => record.args);
  // 3, 5, 0 and -1 end; the huge count and Infinity do not, within the call's time.
  expect(generated).toEqual(expect.arrayContaining(['3', '5', '0', '-1']));
  expect(generated).not.toContain('1000000000000000');
  expect(generated).not.toContain('Infinity');
});
