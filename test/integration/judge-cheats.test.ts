// The judge cannot be fooled by an engine that rewrites how the tests run instead of fixing the bug
// (the `script` engine plays such an engine): a test script that exits 0, or one that swallows the
// failures' exit code, never ends green. The same repository with an honest fix does.
import { describe, expect, it, afterAll } from 'vitest';
import { join } from 'node:path';
import type { RunResult } from '../../src/core/run-result.ts';
import { bwrapWorks } from '../../src/sandbox/bwrap-sandbox.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import { runCli } from '../support/run-cli.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const PROJECT = {
  'package.json': JSON.stringify({ name: 'calc', type: 'module', private: true, scripts: { test: 'node --test' } }, null, 2) + '\n',
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  'test/math.test.js': "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from '../src/math.js';\n\ntest('add sums', () => assert.equal(add(2, 3), 5));\ntest('add zero', () => assert.equal(add(0, 0), 0));\n",
};

/** Rewrites package.json's test script with node (present in every backend). */
const setTestScript = (script: string) => `node -e 'const f=require("fs");const p=JSON.parse(f.readFileSync("package.json"));p.scripts.test=${JSON.stringify(script)};f.writeFileSync("package.json",JSON.stringify(p))'`;

async function run(sandbox: string, script: string): Promise<RunResult> {
  const repo = await makeRepo(PROJECT);
  dirs.push(repo);
  const out = join(repo, '..', `${repo.split('/').at(-1)}-out`);
  dirs.push(out);
  const cli = await runCli(['run', repo, '--test', 'npm test', '--engine', 'script', '--script', script, '--max-attempts', '2', '--sandbox', sandbox, '--json', '--out', out], { cwd: repo });
  return JSON.parse(cli.stdout) as RunResult;
}

const backends = ['process', ...(bwrapWorks() || process.env.FIXLOOP_REQUIRE_BWRAP === '1' ? ['bwrap'] : [])];

describe.each(backends)('the judge under the %s sandbox', (sandbox) => {
  it('never calls a test script that exits 0 green', async () => {
    const result = await run(sandbox, setTestScript('exit 0'));
    expect(result.status).not.toBe('tests_green');
    expect(result.attempts.flatMap((a) => a.findings.map((f) => f.kind))).toContain('evidence_missing');
  });

  it('never calls a test script that swallows the failures\' exit code green', async () => {
    const result = await run(sandbox, setTestScript('node --test || true'));
    expect(result.status).not.toBe('tests_green');
    expect(result.attempts.flatMap((a) => a.findings.map((f) => f.kind))).toContain('exit_code_disagrees');
  });

  it('still calls an honest fix of the same repository green', async () => {
    const result = await run(sandbox, "sed -i 's/a - b/a + b/' src/math.js");
    expect(result.status).toBe('tests_green');
    expect(result.verification?.findings).toEqual([]);
  });
});
