import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGate } from '../../src/gate/run-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';

const sandbox = createProcessSandbox();
let cwd = '';
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'fixloop-gate-'));
});
afterAll(() => rm(cwd, { recursive: true, force: true }));

describe('runGate', () => {
  it('passes on exit 0 and fails with the reason otherwise', async () => {
    expect(await runGate(sandbox, { command: 'echo "2 passed, 0 failed"', cwd, timeoutMs: 5000 })).toMatchObject({
      passed: true,
      report: { passed: 2 },
    });
    expect(await runGate(sandbox, { command: 'exit 1', cwd, timeoutMs: 5000 })).toMatchObject({
      passed: false,
      reason: 'NON_ZERO_EXIT',
      exitCode: 1,
      report: { parsed: false },
    });
    expect(await runGate(sandbox, { command: 'sleep 5', cwd, timeoutMs: 300 })).toMatchObject({
      passed: false,
      reason: 'TIMEOUT',
    });
    expect(await runGate(sandbox, { command: 'kill -9 $$', cwd, timeoutMs: 5000 })).toMatchObject({
      passed: false,
      reason: 'PROCESS_KILLED',
    });
  });

  it('loads the runner’s runtime guard in every run, judged or not, and says where the view came from', async () => {
    await writeFile(join(cwd, 'one.test.mjs'), "import test from 'node:test';\ntest('adds', () => {});\n");
    const gate = await runGate(sandbox, { command: 'node --test one.test.mjs', cwd, timeoutMs: 30_000 });
    expect(gate.passed).toBe(true);
    expect(gate.report.guard?.runner).toBe('node-test');
    expect(gate.report.guard?.records.filter((r) => r.complete && r.tests?.passed === 1)).toHaveLength(1);
    // From inside once its records name the tests, from the output (node's spec reporter names it) until then.
    expect(['inside', 'output']).toContain(gate.report.view);
    expect(gate.report.tests.map((t) => t.id)).toEqual(['adds']);
    // A command no runner of fixloop's starts: no guard, the output's counts.
    const echoed = await runGate(sandbox, { command: 'echo "2 passed, 0 failed"', cwd, timeoutMs: 5000 });
    expect(echoed.report).toMatchObject({ guard: null, view: 'counts', passed: 2 });
  }, 60_000);

  it('reads a JUnit report file, never a stale one, and refuses paths outside the repository', async () => {
    const xml = await readFile(new URL('../fixtures/outputs/pytest-junit.xml', import.meta.url), 'utf8');
    await writeFile(join(cwd, 'source.xml'), xml);
    const gate = await runGate(sandbox, {
      command: 'cp source.xml report.xml; exit 1',
      cwd,
      timeoutMs: 5000,
      reportFile: 'report.xml',
    });
    expect(gate.report).toMatchObject({ format: 'junit', failed: 3 });
    // A report left by an earlier run is removed first: this run writes none.
    const stale = await runGate(sandbox, { command: 'exit 1', cwd, timeoutMs: 5000, reportFile: 'report.xml' });
    expect(stale.report.parsed).toBe(false);
    await expect(runGate(sandbox, { command: 'true', cwd, timeoutMs: 5000, reportFile: '../x.xml' })).rejects.toThrow(
      /inside the repository/,
    );
  });
});
