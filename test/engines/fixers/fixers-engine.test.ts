// The fixers engine gives up honestly: no check to fix, no fixer for the check's tool, a fixer that is
// not installed, or files a fix may not change; and, for a tool with no fixer, it runs the project's
// own fixing script. (Fixers that fix: test/integration/cli-checks.test.ts.)
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckRun, Diagnostic } from '../../../src/core/check-result.ts';
import type { GateResult } from '../../../src/core/gate-result.ts';
import { defaultRepoConfig } from '../../../src/core/repo-config.ts';
import type { AttemptContext } from '../../../src/engines/engine.ts';
import { createFixersEngine } from '../../../src/engines/fixers/fixers-engine.ts';
import { checkGate } from '../../../src/gate/check-gate.ts';
import { createCheckGateRunner } from '../../../src/gate/check-gate-runner.ts';
import { createProcessSandbox } from '../../../src/sandbox/process-sandbox.ts';
import { createWorkspace } from '../../../src/workspace/create-workspace.ts';
import { createPathPolicy } from '../../../src/workspace/path-policy.ts';
import { makeRepo, removeAll } from '../../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const green: GateResult = {
  passed: true,
  report: { format: 'node-test', parsed: true, passed: 1, failed: 0, skipped: 0, total: 1, tests: [] },
  output: '',
  durationMs: 1,
};

function failing(command: string, tool: string, diagnostics: Diagnostic[]): CheckRun {
  return { command, tool, passed: false, exitCode: 1, diagnostics, parsed: diagnostics.length > 0, output: '', durationMs: 1 };
}

async function attempt(files: Record<string, string>, checks: CheckRun[]) {
  const source = await makeRepo(files);
  const tmpRoot = await mkdtemp(join(tmpdir(), 'fixloop-fixers-'));
  dirs.push(source, tmpRoot);
  const config = { ...defaultRepoConfig(), checks: checks.map((c) => c.command) };
  config.test.command = 'node --test';
  const { workspace } = await createWorkspace({ source, ref: null, sha: null, tmpRoot, policy: createPathPolicy(config.paths) });
  const sandbox = createProcessSandbox();
  const lines: string[] = [];
  const ctx: AttemptContext = {
    attempt: 1,
    maxAttempts: 5,
    workspace,
    sandbox,
    config,
    goal: 'make the checks pass',
    lastGate: checkGate({ checks, suite: green, baseline: green, suiteCommand: 'node --test' }),
    baseline: green,
    ...(checks.length > 0
      ? { checks: createCheckGateRunner({ sandbox, config, baseline: green, testCommand: 'node --test' }) }
      : {}),
    previousAttempts: [],
    hints: [],
    mode: 'fix',
    remainingTasks: [],
    signal: new AbortController().signal,
    deadline: Date.now() + 120_000,
    log: (line) => lines.push(line),
  };
  const engine = createFixersEngine();
  return { outcome: await engine.attempt(ctx), again: () => engine.attempt(ctx), lines, diff: () => workspace.diff() };
}

const at = (tool: string, file: string, rule?: string): Diagnostic => ({
  tool,
  file,
  line: 1,
  column: 1,
  ...(rule ? { rule } : {}),
  message: 'reported',
});

describe('the fixers engine', () => {
  it('gives up when the gate is no check', async () => {
    const { outcome } = await attempt({ 'a.js': '' }, []);
    expect(outcome).toMatchObject({ gaveUp: true, cost: { usd: 0, tokens: 0 } });
    expect(outcome.summary).toMatch(/^no check to fix/);
  });

  it("gives up, saying why, when the check's tool is not installed, has no fixer, or names only protected files", async () => {
    const { outcome, lines } = await attempt({ 'src/a.js': 'x\n', 'test/a.test.js': 'x\n' }, [
      failing('npx eslint src', 'eslint', [at('eslint', 'src/a.js', 'semi')]),
      failing('npx tsc --noEmit', 'tsc', [at('tsc', 'src/a.ts', 'TS2322')]),
      failing('npx prettier --check test', 'prettier', [at('prettier', 'test/a.test.js')]),
    ]);
    expect(outcome.gaveUp).toBe(true);
    expect(lines).toEqual(
      expect.arrayContaining([
        "fixers: eslint is not installed in the repository's node_modules",
        'fixers: tsc has no fixer: what it reports needs a change to the code',
        'fixers: prettier: every file the check names is one a fix may not change (paths.protected)',
      ]),
    );
    expect(outcome.summary).toMatch(/^no fixer for the failing check\(s\): /);
  });

  it("runs the project's own fixing script for a tool with no fixer, then gives up on the code it left", async () => {
    const script = `node -e "require('fs').writeFileSync('src/a.ts', 'export const n: number = 1;\\\\n')"`;
    const { outcome, again, diff } = await attempt(
      { 'package.json': JSON.stringify({ scripts: { fix: script } }), 'src/a.ts': 'export const n: number = "1";\n' },
      [failing('npx tsc --noEmit', 'tsc', [at('tsc', 'src/a.ts', 'TS2322')])],
    );
    expect(outcome).toMatchObject({ gaveUp: false, summary: 'ran `npm run fix`: 1 file(s) changed' });
    expect(await diff()).toContain('+export const n: number = 1;');
    const second = await again();
    expect(second.gaveUp).toBe(true);
    expect(second.summary).toMatch(/^the fixers already ran on this code/);
  });
});
