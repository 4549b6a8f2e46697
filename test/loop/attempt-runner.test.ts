// The attempt runner both phases share: an engine's failure is contained (or stops the run when it is
// misconfigured), cost adds up, rejected changes never meet the gate, and the red phase gets only
// the policy it is given.
import { describe, expect, it } from 'vitest';
import { defaultRepoConfig } from '../../src/core/repo-config.ts';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { Engine, EngineOutcome } from '../../src/engines/engine.ts';
import { EngineError } from '../../src/engines/engine-error.ts';
import { AttemptLog } from '../../src/loop/attempt-log.ts';
import { runAttempt, type AttemptChecks, type AttemptShared, type AttemptStart } from '../../src/loop/attempt-runner.ts';
import { redPhasePolicy, runRedPhase } from '../../src/loop/red-phase.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { MemoryWorkspace } from './memory-workspace.ts';
import { noArtifacts } from './no-artifacts.ts';

const report = (passed: number, failed: number, tests: GateResult['report']['tests'] = []) => ({
  format: 'node-test' as const,
  parsed: true,
  passed,
  failed,
  skipped: 0,
  total: passed + failed,
  tests,
});
const green: GateResult = {
  passed: true,
  output: 'ok',
  durationMs: 1,
  report: report(1, 0, [{ id: 'old', name: 'old', status: 'passed' }]),
};

function shared(): AttemptShared {
  return {
    sandbox: {} as Sandbox,
    config: defaultRepoConfig(),
    goal: 'fix it',
    hints: [],
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
    artifacts: noArtifacts,
    onProgress: () => undefined,
  };
}

function engine(attempt: (ws: MemoryWorkspace) => Promise<EngineOutcome>): Engine {
  return { name: 'e', canWriteTests: true, attempt: (ctx) => attempt(ctx.workspace as MemoryWorkspace) };
}

function start(ws: MemoryWorkspace, e: Engine): AttemptStart {
  return { n: 1, engine: e, mode: 'fix', workspace: ws, baseline: green, lastGate: green, previous: [], remainingTasks: [] };
}

/** Checks that find nothing and a gate that counts its runs, unless overridden. */
function checks(overrides: Partial<AttemptChecks> = {}): AttemptChecks & { gates: number } {
  const counted: AttemptChecks & { gates: number } = {
    gates: 0,
    check: async () => [],
    runGate: async () => {
      counted.gates++;
      return green;
    },
    gateUnchanged: true,
    cost: { usd: 0, tokens: 0 },
    ...overrides,
  };
  return counted;
}

describe('runAttempt', () => {
  it('adds the engine cost, gates the changes and returns the patch', async () => {
    const ws = new MemoryWorkspace({ 'src/f.js': 'a' });
    const c = checks({ cost: { usd: 0.5, tokens: 5 } });
    const out = await runAttempt(
      shared(),
      start(
        ws,
        engine(
          async (w) => (
            await w.writeFile('src/f.js', 'b'),
            { summary: 'wrote b', cost: { usd: 0.25, tokens: 3 }, gaveUp: false }
          ),
        ),
      ),
      c,
      new AttemptLog(),
    );
    expect(c.cost).toEqual({ usd: 0.75, tokens: 8 });
    expect(out.gate).toBe(green);
    expect(out.changes.map((ch) => ch.path)).toEqual(['src/f.js']);
    expect(out.patch).toContain('src/f.js');
  });

  it('contains an engine that fails: the attempt gave up, and the log says why', async () => {
    const ws = new MemoryWorkspace({ 'src/f.js': 'a' });
    const log = new AttemptLog();
    const out = await runAttempt(
      shared(),
      start(
        ws,
        engine(async () => {
          throw new Error('boom');
        }),
      ),
      checks(),
      log,
    );
    expect(out.outcome).toEqual({ summary: 'engine failed: boom', cost: { usd: 0, tokens: 0 }, gaveUp: true });
    expect(log.text()).toContain('engine e failed: boom');
  });

  it('lets a misconfigured engine stop the run', async () => {
    const ws = new MemoryWorkspace({ 'src/f.js': 'a' });
    const misconfigured = engine(async () => {
      throw new EngineError('ENGINE_MISCONFIGURED', 'no model');
    });
    await expect(runAttempt(shared(), start(ws, misconfigured), checks(), new AttemptLog())).rejects.toThrow('no model');
  });

  it('never gates rejected changes, nor no change when the phase says so', async () => {
    const ws = new MemoryWorkspace({ 'src/f.js': 'a' });
    const rejecting = checks({ check: async () => [{ kind: 'path_protected', path: 'src/f.js', message: 'no' }] });
    const writes = engine(
      async (w) => (await w.writeFile('src/f.js', 'b'), { summary: 'wrote', cost: { usd: 0, tokens: 0 }, gaveUp: false }),
    );
    const rejected = await runAttempt(shared(), start(ws, writes), rejecting, new AttemptLog());
    expect([rejected.gate, rejecting.gates, rejected.findings.length]).toEqual([null, 0, 1]);
    await ws.restore(rejected.before);
    expect(ws.files.get('src/f.js')).toBe('a');

    const idle = engine(async () => ({ summary: 'nothing', cost: { usd: 0, tokens: 0 }, gaveUp: false }));
    const unchanged = checks({ gateUnchanged: false });
    expect((await runAttempt(shared(), start(ws, idle), unchanged, new AttemptLog())).gate).toBeNull();
    const always = checks();
    expect((await runAttempt(shared(), start(ws, idle), always, new AttemptLog())).gate).toBe(green);
  });
});

describe('runRedPhase', () => {
  it('checks the changes against the policy it is given', async () => {
    const config = defaultRepoConfig();
    const ws = new MemoryWorkspace({ 'src/f.js': 'a' });
    const writesSource = engine(
      async (w) => (await w.writeFile('src/f.js', 'b'), { summary: 'wrote source', cost: { usd: 0, tokens: 0 }, gaveUp: true }),
    );
    let gates = 0;
    const out = await runRedPhase({
      ...shared(),
      config,
      workspace: ws,
      policy: redPhasePolicy(config),
      engines: [writesSource],
      baseline: green,
      runGate: async () => (gates++, green),
      maxAttempts: 2,
    });
    expect(out.proof).toBeNull();
    expect(out.explanation).toMatch(/^rejected: /);
    expect(gates).toBe(0);
    expect(ws.files.get('src/f.js')).toBe('a');
    expect(out.attempts).toHaveLength(1);
  });

  it('proves a new test that fails on the pristine code', async () => {
    const config = defaultRepoConfig();
    const ws = new MemoryWorkspace({ 'src/f.js': 'a' });
    const writesTest = engine(
      async (w) => (
        await w.writeFile('test/f.test.js', 'new'),
        { summary: 'wrote a test', cost: { usd: 0.1, tokens: 1 }, gaveUp: false }
      ),
    );
    const red: GateResult = {
      passed: false,
      reason: 'NON_ZERO_EXIT',
      exitCode: 1,
      output: '1 failed',
      durationMs: 1,
      report: report(1, 1, [
        { id: 'old', name: 'old', status: 'passed' },
        { id: 'new', name: 'new', status: 'failed', file: 'test/f.test.js' },
      ]),
    };
    const out = await runRedPhase({
      ...shared(),
      config,
      workspace: ws,
      policy: redPhasePolicy(config),
      engines: [writesTest],
      baseline: green,
      runGate: async () => red,
      maxAttempts: 2,
    });
    expect(out.proof?.failedBefore.map((t) => t.id)).toEqual(['new']);
    expect([...(out.proof?.testFiles.files.keys() ?? [])]).toEqual(['test/f.test.js']);
    expect(out.cost).toEqual({ usd: 0.1, tokens: 1 });
    expect(out.attempts[0]?.phase).toBe('write-test');
  });
});
