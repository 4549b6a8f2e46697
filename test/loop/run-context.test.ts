// A long, silent phase is reminded of at least every 30 s (and the reminders are not run events);
// the end of the run stops them.
import { noArtifacts } from './no-artifacts.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import type { RunProgress } from '../../src/loop/progress.ts';
import { createRunContext } from '../../src/loop/run-context.ts';
import { causeLines } from '../../src/loop/prepare-run.ts';

afterEach(() => vi.useRealTimers());

const artifacts = noArtifacts;

describe('the run context', () => {
  it('prints a heartbeat with the phase and elapsed time while a phase is silent, and stops at the end', async () => {
    vi.useFakeTimers();
    const seen: RunProgress[] = [];
    const events: RunResult['events'] = [];
    const counts = { passed: 0, failed: 0, skipped: 0, total: 0, parsed: false, format: 'unknown' as const };
    const base: RunResult = {
      runId: 'r',
      status: 'error',
      headline: '',
      repository: { source: '.', ref: null, sha: '' },
      testCommand: 'npm test',
      engines: ['repair'],
      engine: null,
      sandbox: 'process',
      attempts: [],
      patch: '',
      filesChanged: [],
      baseline: counts,
      baselineTests: [],
      final: null,
      verification: null,
      cost: { usd: 0, tokens: 0 },
      startedAt: '',
      durationMs: 0,
      artifactsDir: '/nowhere',
      events,
    };
    const ctx = createRunContext({} as never, { onProgress: (p: RunProgress) => seen.push(p) } as never, {
      base,
      artifacts,
      scratch: '/nowhere',
      events,
      started: Date.now(),
    });
    ctx.progress({ phase: 'setup', message: 'setup: npm ci' });
    vi.advanceTimersByTime(29_000);
    expect(seen.filter((p) => p.heartbeat)).toEqual([]);
    vi.advanceTimersByTime(11_000);
    const beats = seen.filter((p) => p.heartbeat);
    expect(beats).toHaveLength(1);
    expect(beats[0]).toMatchObject({ phase: 'setup', message: expect.stringMatching(/still in setup \(\d+ s into the run\)/) });
    ctx.progress({ phase: 'attempt', attempt: 2, maxAttempts: 5, message: 'attempt 2/5 (repair): 1 failing' });
    vi.advanceTimersByTime(40_000);
    expect(seen.filter((p) => p.heartbeat).at(-1)?.message).toMatch(/still in attempt 2\/5/);
    expect(events.map((e) => e.kind)).toEqual(['setup', 'attempt']);
    await ctx.finish({ ...base, error: { code: 'SETUP_FAILED', message: 'x' } });
    const count = seen.length;
    vi.advanceTimersByTime(120_000);
    expect(seen).toHaveLength(count);
  });

  it('shows the lines of a failed setup that carry the cause, not only its tail', () => {
    const output = [
      'npm warn deprecated a@1',
      'npm error code SELF_SIGNED_CERT_IN_CHAIN',
      'npm error request to https://registry.example/x failed',
      ...Array.from({ length: 40 }, (_, i) => `npm error context line ${i}`).map((l) => l.replace('npm error ', 'log ')),
      'npm error A complete log of this run can be found in: /tmp/x.log',
    ].join('\n');
    const shown = causeLines(output);
    expect(shown).toContain('SELF_SIGNED_CERT_IN_CHAIN');
    expect(shown).not.toContain('log context line 3');
    expect(causeLines('one\ntwo\n')).toBe('one\ntwo');
  });
});
