// A unit script under a coverage threshold (`c8 --check-coverage … node --test`), end to end with the
// real `fixloop run`: a run of the fixed test alone fails as a whole, as a threshold a few tests cannot
// reach fails it, though the test passed. Seen from inside the test processes, the second observation
// takes the test's own outcome (src/verify/passed-alone.ts), and the correct fix is published.
import { afterAll, expect, it } from 'vitest';
import { fixloopRun, removeScriptedRuns } from '../support/scripted-run.ts';
import { writeFile } from '../support/judge-cheat-run.ts';

afterAll(removeScriptedRuns);

/** Runs the command it is given, then fails a run of chosen tests, as a coverage threshold does. */
const THRESHOLD = `const { spawnSync } = require('node:child_process');
const [command, ...args] = process.argv.slice(2);
const run = spawnSync(command, args, { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
if (args.some((arg) => arg.startsWith('--test-name-pattern'))) {
  console.error('ERROR: Coverage for lines (60%) does not meet global threshold (100%)');
  process.exit(1);
}
`;

const MATH = (body: string) =>
  `function add(a, b) {\n  return ${body};\n}\nfunction neg(a) {\n  return -a;\n}\nmodule.exports = { add, neg };\n`;

const PROJECT = {
  'package.json':
    JSON.stringify({ name: 'calc', private: true, scripts: { test: 'node tools/threshold.js node --test' } }) + '\n',
  'tools/threshold.js': THRESHOLD,
  'src/math.js': MATH('a - b'),
  'test/math.test.js': `const test = require('node:test');
const assert = require('node:assert/strict');
const { add, neg } = require('../src/math.js');
test('add sums', () => assert.equal(add(2, 3), 5));
test('neg negates', () => assert.equal(neg(2), -2));
`,
};

it('publishes a fix whose test, run alone, passed under a threshold only the whole suite reaches', async () => {
  const { result } = await fixloopRun(PROJECT, 'npm test', [
    ...['--sandbox', 'process', '--engine', 'script', '--script', writeFile('src/math.js', MATH('a + b'))],
    ...['--max-attempts', '1'],
  ]);
  expect(result.status, result.headline).toBe('tests_green');
  expect(result.verification?.alone?.ran).toBe(1);
});
