// A pnpm project as it is: `pnpm test` runs `pnpm lint && pnpm vitest run`, end to end with the real
// `fixloop run`, real pnpm and vitest. The runner is found through pnpm's script and the chain's step
// that starts it (src/runners/registry.ts, `runnerOf`), so its runtime guard names every test from
// inside the test processes, and the fixed test runs alone through that step (`pnpm vitest run -t …`).
// Without it, vitest's output named only the failing test of a run of two files: the baseline was
// counted, not named, and a correct fix ended `failed_to_green`.
import { afterAll, expect, it } from 'vitest';
import { borrowedRunners } from '../support/borrowed-runners.ts';
import { judgeCheat, removeCheatRuns } from '../support/judge-cheat-run.ts';

afterAll(() => removeCheatRuns());

const PROJECT = {
  'package.json':
    JSON.stringify({
      name: 'calc',
      private: true,
      type: 'module',
      scripts: { test: 'pnpm lint && pnpm vitest run', lint: 'node -e 0' },
    }) + '\n',
  'fixloop.yml': 'assessment:\n  enabled: false\n',
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\nexport function neg(a) {\n  return -a;\n}\n',
  'test/add.test.js':
    "import { expect, test } from 'vitest';\nimport { add } from '../src/math.js';\ntest('add sums', () => expect(add(2, 3)).toBe(5));\n",
  'test/neg.test.js':
    "import { expect, test } from 'vitest';\nimport { neg } from '../src/math.js';\ntest('neg negates', () => expect(neg(2)).toBe(-2));\n",
};

it('names every test through the chain’s vitest step, runs the fixed test alone through it, and publishes the fix', async () => {
  const result = await judgeCheat({
    files: PROJECT,
    test: 'pnpm test',
    script: "sed -i 's/a - b/a + b/' src/math.js",
    sandbox: 'process',
    env: borrowedRunners(),
  });
  expect(result.status, result.headline).toBe('tests_green');
  expect(result.verification?.runtimeGuard).toMatchObject({ runner: 'vitest', available: true });
  expect(result.verification?.baselineView).toBe('inside');
  expect(result.verification?.failToPass).toEqual([expect.stringContaining('add sums')]);
  expect(result.verification?.alone).toMatchObject({
    ran: 1,
    command: expect.stringMatching(/^pnpm vitest run .*-t 'add sums'/),
  });
}, 240_000);
