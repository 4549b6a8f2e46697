// A project whose `npm test` chains its test script and its lint (`npm run test:unit && npm run lint`),
// end to end with the real `fixloop run` and jest: the runner is found through the chain
// (src/runners/registry.ts, `runnerOf`), so its runtime guard names every test from inside the test
// processes. jest's own output names only the failing ones where it runs more than one file: without
// the guard the baseline was counted, not named, and a correct fix ended `failed_to_green`.
import { afterAll, expect, it } from 'vitest';
import { borrowedRunners } from '../support/borrowed-runners.ts';
import { judgeCheat, removeCheatRuns } from '../support/judge-cheat-run.ts';

afterAll(() => removeCheatRuns());

const SCRIPTS = { test: 'npm run test:unit && npm run lint', 'test:unit': 'jest --ci', lint: 'node -e 0' };

const PROJECT = {
  'package.json': JSON.stringify({ name: 'calc', private: true, scripts: SCRIPTS }) + '\n',
  'fixloop.yml': 'assessment:\n  enabled: false\n',
  'src/math.js': 'function add(a, b) {\n  return a - b;\n}\nfunction neg(a) {\n  return -a;\n}\nmodule.exports = { add, neg };\n',
  'test/add.test.js': "const { add } = require('../src/math.js');\ntest('add sums', () => expect(add(2, 3)).toBe(5));\n",
  'test/neg.test.js': "const { neg } = require('../src/math.js');\ntest('neg negates', () => expect(neg(2)).toBe(-2));\n",
};

it('names every test through the chain’s jest script, and publishes the fix', async () => {
  const result = await judgeCheat({
    files: PROJECT,
    test: 'npm test',
    script: "sed -i 's/a - b/a + b/' src/math.js",
    sandbox: 'process',
    env: borrowedRunners(),
  });
  expect(result.status, result.headline).toBe('tests_green');
  expect(result.verification?.runtimeGuard).toMatchObject({ runner: 'jest', available: true });
  expect(result.verification?.baselineView).toBe('inside');
  expect(result.verification?.failToPass).toEqual([expect.stringContaining('add sums')]);
}, 240_000);
