import { describe, expect, it } from 'vitest';
import type { Job, JobControl } from '../../src/jobs/job-queue.ts';
import { createMemoryQueue } from '../../src/jobs/memory-queue.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function job(key: string, body: (c: JobControl) => Promise<void>, runId = key): Job {
  return { key, runId, actor: 'alice', run: body };
}

describe('the in-process job queue', () => {
  it('runs at most `concurrency` jobs at once, in order', async () => {
    const queue = createMemoryQueue({ concurrency: 2 });
    const started: string[] = [];
    const gates = [gate(), gate(), gate()];
    ['a', 'b', 'c'].forEach((k, i) =>
      queue.enqueue(
        job(k, async () => {
          started.push(k);
          await gates[i]?.opened;
        }),
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual(['a', 'b']);
    expect(queue.status('c')?.state).toBe('queued');
    gates[0]?.open();
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual(['a', 'b', 'c']);
    gates[1]?.open();
    gates[2]?.open();
    await queue.drain();
    expect(queue.status('a')).toBeNull();
  });

  it('refuses a second job for an active key and points at the active one', async () => {
    const queue = createMemoryQueue({ concurrency: 1 });
    const g = gate();
    expect(queue.enqueue(job('acme/shop#1', () => g.opened, 'run-1'))).toEqual({ accepted: true });
    const second = queue.enqueue(job('acme/shop#1', async () => undefined, 'run-2'));
    expect(second).toMatchObject({ accepted: false, active: { runId: 'run-1' } });
    g.open();
    await queue.drain();
    expect(queue.enqueue(job('acme/shop#1', async () => undefined, 'run-3'))).toEqual({ accepted: true });
    await queue.drain();
  });

  it('cancels through the abort signal, with who asked, and reports progress for status', async () => {
    const queue = createMemoryQueue({ concurrency: 1 });
    let reason = '';
    queue.enqueue(
      job('k', async (c) => {
        c.report('attempt 1/5');
        await new Promise<void>((resolve) => c.signal.addEventListener('abort', () => resolve()));
        reason = String((c.signal.reason as Error).message);
      }),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(queue.status('k')).toMatchObject({ state: 'running', progress: 'attempt 1/5' });
    expect(queue.cancel('k', 'bob')).toBe(true);
    await queue.drain();
    expect(reason).toBe('cancelled by bob');
    expect(queue.cancel('k', 'bob')).toBe(false);
  });

  it('survives a job that throws', async () => {
    const errors: unknown[] = [];
    const queue = createMemoryQueue({ concurrency: 1, onError: (e) => errors.push(e) });
    queue.enqueue(job('x', async () => Promise.reject(new Error('boom'))));
    queue.enqueue(job('y', async () => undefined));
    await queue.drain();
    expect(errors).toHaveLength(1);
  });
});
