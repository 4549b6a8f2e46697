// An honest fix of a node --test project of several test files, judged under every sandbox (issue 49:
// a false `runtime_tampering` on such a fix). The judge runs the fixed test alone through node's own
// selection, `--test-name-pattern` with no file named: node starts one process per file, and on Node
// 22 and later a file whose tests all miss the pattern reports no test, so node's parent process
// reports the file itself as one passed test. The runtime guard in that file's process must count it
// as node does, or the runner's counts and the guard's disagree on an honest run. The project runs
// on Node 24, as its user's PATH brings it (borrowed-runners.ts).
import { afterAll, describe, expect, it, vi } from 'vitest';
import { borrowedRunners } from '../support/borrowed-runners.ts';
import { BACKENDS, judgeCheat, removeCheatRuns } from '../support/judge-cheat-run.ts';

afterAll(() => removeCheatRuns());
vi.setConfig({ testTimeout: 240_000 });

const ENV = borrowedRunners();
const MODULE = JSON.stringify({ name: 'calc', type: 'module', private: true, scripts: { test: 'node --test' } }) + '\n';
const testFile = (name: string, body: string) =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from '../src/math.js';\n\ntest('${name}', () => ${body});\n`;
const FILES: Record<string, string> = {
  'package.json': MODULE,
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  // A failing subtest: node's output places it in its file, but not its parent, which the judge
  // then runs alone by its name only.
  'test/add.test.js': testFile('math', "t.test('add sums', () => assert.equal(add(2, 3), 5))").replace('() =>', 'async (t) =>'),
  'test/zero.test.js': testFile('add zero', 'assert.equal(add(0, 0), 0)'),
  'test/same.test.js': testFile('add is a function', "assert.equal(typeof add, 'function')"),
  'test/twice.test.js': testFile('add twice', 'assert.equal(add(add(1, 1), 0), 2)'),
  'test/one.test.js': testFile('add one', 'assert.equal(add(1, 0), 1)'),
};
const HONEST = "sed -i 's/a - b/a + b/' src/math.js";

describe.each(BACKENDS)('an honest fix of a node --test project of several files, under the %s sandbox', (sandbox) => {
  it('ends green, its fixed test run alone across every file without a finding', async () => {
    const result = await judgeCheat({ files: FILES, test: 'node --test', script: HONEST, sandbox, env: ENV });
    expect(result.verification?.findings ?? []).toEqual([]);
    expect(result.status).toBe('tests_green');
    // The run alone named the pattern and no file: every file's process ran.
    expect(result.verification?.alone?.command).toBe("node --test --test-name-pattern='add twice'");
  });
});
