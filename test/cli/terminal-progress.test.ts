// Live progress on stderr (src/cli/terminal-progress.ts) with the run's heartbeat (src/loop/heartbeat.ts),
// on fake timers: a terminal never goes more than 30 s without a line, however the run's own lines
// fall between the old 10 s ticks; the repair engine's candidate count is one line rewritten in place
// on a terminal and one line every 30 s at most elsewhere; the closing line is left to the report.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTerminalProgress } from '../../src/cli/terminal-progress.ts';
import { createHeartbeat, HEARTBEAT_MS } from '../../src/loop/heartbeat.ts';
import { candidateWords, type RunProgress } from '../../src/loop/progress.ts';

/** What a run does: every progress event starts the silence again, and the heartbeat reminds of the last one. */
function watchedRun(options: { tty: boolean }) {
  const writes: { at: number; text: string }[] = [];
  const show = createTerminalProgress((text) => writes.push({ at: Date.now(), text }), { tty: options.tty, reportFollows: true });
  const beat = createHeartbeat((last) => progress({ ...last, heartbeat: true, message: `still in ${last.phase}` }));
  const progress = (p: RunProgress) => {
    beat.said(p);
    show(p);
  };
  return { writes, progress, beat };
}

function count(validated: number, plausible = 0): RunProgress {
  const c = { validated, total: 300, plausible };
  return { phase: 'engine', attempt: 1, maxAttempts: 3, candidates: c, message: candidateWords(c) };
}

describe('terminal progress', () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it('writes a line at least every 30 s through a silent phase, whenever its last line fell', () => {
    const { writes, progress, beat } = watchedRun({ tty: false });
    // The old heartbeat ticked every 10 s from its start: a line 0.5 s after a tick waited 39.5 s.
    vi.advanceTimersByTime(500);
    progress({ phase: 'setup', message: 'setup: npm ci' });
    vi.advanceTimersByTime(7_300);
    progress({ phase: 'engine', attempt: 1, message: 'an engine says something' });
    vi.advanceTimersByTime(5 * 60_000);
    beat.stop();
    const times = writes.map((w) => w.at);
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    expect(writes.length).toBeGreaterThan(10);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(HEARTBEAT_MS);
    expect(writes.at(-1)?.text).toMatch(/ {2}still in setup\n$/);
  });

  it('on a terminal, rewrites the candidate count in place and clears it for the next line', () => {
    const { writes, progress, beat } = watchedRun({ tty: true });
    progress({ phase: 'attempt', attempt: 1, maxAttempts: 3, message: 'attempt 1/3 (repair): 1 failing' });
    for (let n = 1; n <= 37; n++) {
      vi.advanceTimersByTime(1_000);
      progress(count(n, n >= 30 ? 1 : 0));
    }
    progress({ phase: 'engine', attempt: 1, message: 'repair: also passes: …' });
    beat.stop();
    const counts = writes.filter((w) => w.text.includes('candidate'));
    expect(counts).toHaveLength(37);
    for (const w of counts) {
      expect(w.text.startsWith('\r\x1b[K')).toBe(true);
      expect(w.text.endsWith('\n')).toBe(false);
    }
    expect(counts.at(-1)?.text).toMatch(/│ repair: candidate 37\/300, 1 plausible$/);
    expect(writes.at(-2)?.text).toBe('\r\x1b[K');
    expect(writes.at(-1)?.text).toMatch(/│ repair: also passes: …\n$/);
  });

  it('elsewhere, writes the candidate count once every 30 s at most, each on its own line', () => {
    const { writes, progress, beat } = watchedRun({ tty: false });
    for (let n = 1; n <= 100; n++) {
      vi.advanceTimersByTime(1_000);
      progress(count(n));
    }
    beat.stop();
    const counts = writes.filter((w) => w.text.includes('candidate'));
    expect(counts.map((w) => /candidate (\d+)/.exec(w.text)?.[1])).toEqual(['1', '31', '61', '91']);
    for (const w of writes) expect(w.text).not.toContain('\r');
  });

  it('leaves the closing line to the report that follows on the terminal', () => {
    const { writes, progress, beat } = watchedRun({ tty: true });
    progress({ phase: 'done', message: 'Error: the test command failed' });
    beat.stop();
    expect(writes.map((w) => w.text).join('')).toBe('');
  });
});
