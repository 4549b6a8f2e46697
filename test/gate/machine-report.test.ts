// The runner's own report, asked for by the gate: real node, pytest and vitest runs in temp folders.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requestMachineReport } from '../../src/gate/machine-report.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';

const sandbox = createProcessSandbox();
const projectModules = resolve(import.meta.dirname, '../../node_modules');
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
});

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-witness-'));
  folders.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

const NODE_TESTS = {
  'test/a.test.js':
    "import test from 'node:test';\nimport assert from 'node:assert';\ntest('one', () => assert.equal(1, 1));\ntest('two', () => assert.equal(1, 2));\n",
  'test/b.test.js': "import test from 'node:test';\ntest('three', () => {});\n",
};

describe('the runner’s own report', () => {
  it('node’s runner, started by npm test, writes one report for every file', async () => {
    const cwd = await project({
      'package.json': JSON.stringify({ type: 'module', scripts: { test: 'node --test' } }),
      ...NODE_TESTS,
    });
    const gate = await runGate(sandbox, { command: 'npm test', cwd, timeoutMs: 60_000, witness: true });
    expect(gate.passed).toBe(false);
    expect(gate.report.witness).toEqual({ runner: 'node', passed: 2, failed: 1, skipped: 0, total: 3 });
    // Asking for the report leaves the output readable: spec on stdout, whatever node's default on a pipe.
    expect(gate.report).toMatchObject({ parsed: true, passed: 2, failed: 1 });
  });

  it('the machine’s older node (20) writes it too', async () => {
    const cwd = await project({ 'package.json': JSON.stringify({ type: 'module' }), ...NODE_TESTS });
    const gate = await runGate(sandbox, { command: '/usr/bin/node --test', cwd, timeoutMs: 60_000, witness: true });
    expect(gate.report.witness).toMatchObject({ runner: 'node', failed: 1, total: 3 });
    expect(gate.report).toMatchObject({ parsed: true, failed: 1 });
  });

  it('pytest writes it through PYTEST_ADDOPTS', async () => {
    const cwd = await project({ 'test_sample.py': 'def test_ok():\n    assert 1 == 1\n\ndef test_bad():\n    assert 1 == 2\n' });
    const gate = await runGate(sandbox, { command: 'python3 -m pytest -q', cwd, timeoutMs: 60_000, witness: true });
    expect(gate.report.witness).toEqual({ runner: 'pytest', passed: 1, failed: 1, skipped: 0, total: 2 });
    expect(gate.report).toMatchObject({ parsed: true, failed: 1 });
  });

  it('a single vitest invocation is asked on its command line', async () => {
    const cwd = await project({
      'sum.test.js':
        "import { test, expect } from 'vitest';\ntest('adds', () => expect(1 + 1).toBe(2));\ntest('fails', () => expect(1 + 1).toBe(3));\n",
    });
    await symlink(projectModules, join(cwd, 'node_modules'));
    const gate = await runGate(sandbox, { command: 'npx vitest run', cwd, timeoutMs: 120_000, witness: true });
    expect(gate.report.witness).toEqual({ runner: 'vitest', passed: 1, failed: 1, skipped: 0, total: 2 });
  });

  it('a summary printed by something else than the runner leaves no report', async () => {
    const cwd = await project({
      'package.json': JSON.stringify({ scripts: { test: 'echo "# pass 3" && echo "# fail 0" && node --test || true' } }),
    });
    const gate = await runGate(sandbox, { command: 'echo "3 passed in 0.01s"', cwd, timeoutMs: 10_000, witness: true });
    expect(gate.passed).toBe(true);
    expect(gate.report.witness).toBeNull();
  });

  it('node is asked only where node’s runner is started, and an operator’s own reporters are left alone', async () => {
    const jest = await project({ 'package.json': JSON.stringify({ scripts: { test: 'jest' } }) });
    const request = await requestMachineReport({ command: 'npm test', cwd: jest, env: {} });
    expect(request.env.NODE_OPTIONS).toBeUndefined();
    expect(request.env.PYTEST_ADDOPTS).toMatch(/^--junitxml=/);
    await request.dispose();

    const own = await requestMachineReport({
      command: 'node --test --test-reporter=tap',
      cwd: jest,
      env: { PYTEST_ADDOPTS: '--junit-xml=mine.xml' },
    });
    expect(own.env).toEqual({});
    await own.dispose();

    const kept = await requestMachineReport({
      command: 'node --test',
      cwd: jest,
      env: { NODE_OPTIONS: '--max-old-space-size=512' },
    });
    expect(kept.env.NODE_OPTIONS).toMatch(/^--max-old-space-size=512 --test-reporter=spec /);
    await kept.dispose();

    const chained = await requestMachineReport({ command: 'vitest run && echo done', cwd: jest, env: {} });
    expect(chained.command).toBe('vitest run && echo done');
    await chained.dispose();
  });
});
