import { noArtifacts } from './no-artifacts.ts';
import { describe, expect, it } from 'vitest';
import { defaultRepoConfig } from '../../src/core/repo-config.ts';
import type { AttemptContext, Engine, EngineOutcome } from '../../src/engines/engine.ts';
import type { GateResult } from '../../src/core/gate-result.ts';
import { runFixLoop, type FixLoopInput } from '../../src/loop/fix-loop.ts';
import type { Verification } from '../../src/core/run-result.ts';
import type { Finding } from '../../src/core/findings.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { MemoryWorkspace } from './memory-workspace.ts';

// The "suite": one test per key in EXPECTED; a test passes when src/f.js holds the expected value.
const EXPECTED = ['a', 'b', 'c'];

function gateFor(ws: MemoryWorkspace): GateResult {
  const value = ws.files.get('src/f.js') ?? '';
  const tests = EXPECTED.map((id) => {
    const ok = value.includes(id) && !value.includes(`!${id}`);
    return ok
      ? { id, name: id, status: 'passed' as const }
      : { id, name: id, status: 'failed' as const, message: `${id} missing from "${value}"` };
  });
  const failed = tests.filter((t) => t.status === 'failed').length;
  const report = {
    format: 'node-test' as const,
    parsed: true,
    passed: tests.length - failed,
    failed,
    skipped: 0,
    total: tests.length,
    tests,
  };
  return failed === 0
    ? { passed: true, output: 'ok', durationMs: 1, report }
    : { passed: false, reason: 'NON_ZERO_EXIT', exitCode: 1, output: `${failed} failed`, durationMs: 1, report };
}

const okVerification: Verification = {
  replayed: true,
  passed: true,
  gate: null,
  failToPass: [],
  passToFail: [],
  stillFailing: [],
  newlySkipped: [],
  findings: [],
};

/** An engine that writes the given values into src/f.js, one per attempt. */
function scripted(name: string, values: (string | null)[], seen: AttemptContext[] = []): Engine {
  return {
    name,
    async attempt(ctx): Promise<EngineOutcome> {
      seen.push(ctx);
      const value = values[ctx.attempt - 1] ?? values.at(-1) ?? null;
      if (value === null) return { summary: 'nothing to try', cost: { usd: 0, tokens: 0 }, gaveUp: true };
      const [path, content] = value.includes('=') ? (value.split('=') as [string, string]) : ['src/f.js', value];
      await ctx.workspace.writeFile(path, content);
      return { summary: `wrote ${value}`, cost: { usd: 0.01, tokens: 10 }, gaveUp: false };
    },
  };
}

function setup(engines: Engine[], overrides: Partial<FixLoopInput> = {}, loop: Partial<FixLoopInput['config']['loop']> = {}) {
  const ws = new MemoryWorkspace({ 'src/f.js': 'a', 'test/f.test.js': 'tests' });
  const config = defaultRepoConfig();
  Object.assign(config.loop, loop);
  const input: FixLoopInput = {
    workspace: ws,
    sandbox: {} as Sandbox,
    config,
    engines,
    baseline: gateFor(ws),
    goal: 'fix it',
    hints: [],
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
    checkChanges: async () => {
      const findings: Finding[] = [];
      for (const c of await ws.changes())
        if (c.path.startsWith('test/'))
          findings.push({ kind: 'path_protected', path: c.path, message: `${c.path} is protected` });
      return findings;
    },
    runGate: async () => gateFor(ws),
    verify: async () => okVerification,
    artifacts: noArtifacts,
    onProgress: () => undefined,
    volatileRoots: [],
    ...overrides,
  };
  return { ws, input };
}

describe('runFixLoop', () => {
  it('stops on the first verified green gate', async () => {
    const { input } = setup([scripted('s', ['ab', 'abc'])]);
    const out = await runFixLoop(input);
    expect(out.green).toBe(true);
    expect(out.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(out.attempts[1]?.startedFrom).toBe('previous');
    expect(out.patch).toContain('abc');
    expect(out.engine).toBe('s');
    expect(out.cost).toEqual({ usd: 0.02, tokens: 20 });
  });

  it('escalates as soon as an attempt fails the same way as an earlier one', async () => {
    const { input } = setup([scripted('s', ['x', 'x'])], {}, { maxAttempts: 5, maxConsecutiveFailures: 5 });
    const out = await runFixLoop(input);
    expect(out.green).toBe(false);
    expect(out.stopReason).toBe('no_progress');
    expect(out.attempts).toHaveLength(2);
  });

  it('escalates after N failed gates in a row without progress', async () => {
    const { input } = setup([scripted('s', ['x', 'xy', 'xyz', 'xyzw'])], {}, { maxAttempts: 10, maxConsecutiveFailures: 3 });
    const out = await runFixLoop(input);
    expect(out.stopReason).toBe('consecutive_failures');
    expect(out.attempts).toHaveLength(3);
  });

  it('stops at the attempt limit', async () => {
    const { input } = setup([scripted('s', ['ab', 'ab!b', 'ab!b!a', 'a!a'])], {}, { maxAttempts: 2, maxConsecutiveFailures: 5 });
    const out = await runFixLoop(input);
    expect(out.stopReason).toBe('max_attempts');
    expect(out.attempts).toHaveLength(2);
  });

  it('starts from the best state when the previous attempt broke more tests than the baseline had failing', async () => {
    const seen: AttemptContext[] = [];
    // baseline: b, c failing (2). attempt 1: "ab" → 1 failing (best). attempt 2: "" → 3 failing (worse than baseline).
    const { input, ws } = setup([scripted('s', ['ab', 'zz', 'abc'], seen)], {}, { maxAttempts: 5, maxConsecutiveFailures: 5 });
    const contents: string[] = [];
    const engine = input.engines[0]!;
    input.engines = [
      {
        name: 's',
        attempt: async (ctx) => {
          contents.push(ws.files.get('src/f.js') ?? '');
          return engine.attempt(ctx);
        },
      },
    ];
    const out = await runFixLoop(input);
    expect(out.green).toBe(true);
    expect(out.attempts.map((a) => a.startedFrom)).toEqual(['baseline', 'previous', 'best']);
    expect(contents).toEqual(['a', 'ab', 'ab']);
  });

  it('rejects and reverts an attempt that touches a protected test, with the finding', async () => {
    const { input, ws } = setup([scripted('s', ['test/f.test.js=weakened'])], {}, { maxAttempts: 3 });
    const out = await runFixLoop(input);
    expect(out.green).toBe(false);
    expect(out.attempts[0]?.findings[0]).toMatchObject({ kind: 'path_protected', path: 'test/f.test.js' });
    expect(out.attempts[0]?.gate).toBeNull();
    expect(ws.files.get('test/f.test.js')).toBe('tests');
    // The same violation twice is no progress.
    expect(out.stopReason).toBe('no_progress');
  });

  it('moves along the cascade when an engine gives up, and reports the engine that fixed it', async () => {
    const { input } = setup([scripted('cheap', [null]), scripted('strong', ['abc'])]);
    const out = await runFixLoop(input);
    expect(out.green).toBe(true);
    expect(out.attempts.map((a) => a.engine)).toEqual(['cheap', 'strong']);
    expect(out.engine).toBe('strong');
  });

  it('ends engines_exhausted when the last engine gives up', async () => {
    const { input } = setup([scripted('cheap', [null])]);
    const out = await runFixLoop(input);
    expect(out.stopReason).toBe('engines_exhausted');
  });

  it('does not call a green gate green when verification fails', async () => {
    const failing: Verification = {
      ...okVerification,
      passed: false,
      findings: [{ kind: 'test_count_lower', message: 'fewer tests' }],
    };
    const { input } = setup([scripted('s', ['abc'])], { verify: async () => failing }, { maxAttempts: 3 });
    const out = await runFixLoop(input);
    expect(out.green).toBe(false);
    expect(out.attempts[0]?.findings[0]?.kind).toBe('test_count_lower');
    expect(out.verification).toBe(failing);
  });

  it('says the time budget ended a run whose last engine stopped because the time was up', async () => {
    const deadline = Date.now() + 60_000;
    const outOfTime: Engine = {
      name: 'repair',
      async attempt(): Promise<EngineOutcome> {
        // The engine works until the run's deadline, then stops: the clock, not the engine, ended it.
        input.deadline = Date.now() - 1;
        return { summary: 'the time budget ran out (12 of 300 candidates validated)', cost: { usd: 0, tokens: 0 }, gaveUp: true };
      },
    };
    const { input } = setup([outOfTime], { deadline });
    const out = await runFixLoop(input);
    expect(out.stopReason).toBe('time_budget');
    expect(out.explanation).toMatch(/^the time budget of \d+ s was spent \(engine repair gave up: the time budget ran out/);
  });

  /** An engine whose attempts run out of their own budget `times` times, changing nothing, then write `fix`. */
  function goesOn(name: string, times: number, fix: string): Engine {
    return {
      name,
      async attempt(ctx): Promise<EngineOutcome> {
        if (ctx.attempt <= times)
          return {
            summary: `the attempt's time budget ran out (${ctx.attempt * 100} of 300 candidates validated)`,
            cost: { usd: 0, tokens: 0 },
            gaveUp: false,
            continues: true,
          };
        await ctx.workspace.writeFile('src/f.js', fix);
        return { summary: `wrote ${fix}`, cost: { usd: 0, tokens: 0 }, gaveUp: false };
      },
    };
  }

  it('lets an engine go on in the next attempt without counting it as a failure or running the gate', async () => {
    let gates = 0;
    const { input, ws } = setup([goesOn('repair', 2, 'abc')], {}, { maxConsecutiveFailures: 1 });
    input.runGate = async () => {
      gates++;
      return gateFor(ws);
    };
    const out = await runFixLoop(input);
    expect(out.green).toBe(true);
    expect(out.attempts.map((a) => [a.attempt, a.continues ?? false, a.gate === null])).toEqual([
      [1, true, true],
      [2, true, true],
      [3, false, false],
    ]);
    expect(gates).toBe(1);
  });

  it('still ends an engine that goes on when the attempts are used', async () => {
    const { input } = setup([goesOn('repair', 10, 'abc')], {}, { maxAttempts: 3 });
    const out = await runFixLoop(input);
    expect(out.stopReason).toBe('max_attempts');
    expect(out.attempts).toHaveLength(3);
  });

  it('moves on to the next engine rather than let the one before it go on', async () => {
    const { input } = setup([goesOn('repair', 10, 'abc'), scripted('agent', ['abc'])]);
    const out = await runFixLoop(input);
    expect(out.green).toBe(true);
    expect(out.attempts.map((a) => a.engine)).toEqual(['repair', 'agent']);
    expect(out.engine).toBe('agent');
  });

  it('stops when the time budget is spent', async () => {
    const { input } = setup([scripted('s', ['ab'])], { deadline: Date.now() - 1 });
    const out = await runFixLoop(input);
    expect(out.stopReason).toBe('time_budget');
    expect(out.attempts).toHaveLength(0);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const { input } = setup([scripted('s', ['ab'])], { signal: controller.signal });
    expect((await runFixLoop(input)).stopReason).toBe('cancelled');
  });

  it('gives engines the failing gate, the previous attempts and the goal', async () => {
    const seen: AttemptContext[] = [];
    const { input } = setup([scripted('s', ['ab', 'abc'], seen)]);
    await runFixLoop(input);
    expect(seen[0]?.lastGate.report.failed).toBe(2);
    expect(seen[1]?.lastGate.report.failed).toBe(1);
    expect(seen[1]?.previousAttempts).toMatchObject([{ attempt: 1, engine: 's', failed: 1, gatePassed: false }]);
    expect(seen[0]?.goal).toBe('fix it');
  });
});
