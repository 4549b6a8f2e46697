// The run store's contract, one suite for every implementation (embedded SQLite, shared
// PostgreSQL): one active run per key, deliveries once, leases, recovery, cancels, lookups.
import { describe, expect, it } from 'vitest';
import type { RunStore } from '../../src/jobs/run-store.ts';
import { jobData } from '../support/job-data.ts';

export function describeRunStore(name: string, open: () => Promise<RunStore>): void {
  describe(`the run store contract (${name})`, () => {
  it('allows one active run per issue or pull request, pointing at it', async () => {
    const store = await open();
    await store.enqueue(jobData('run-1'), 'alice', 'd1');
    const second = await store.enqueue(jobData('run-2'), 'bob', 'd2');
    expect(second).toMatchObject({ accepted: false, active: { runId: 'run-1', state: 'pending' } });
    expect(await store.enqueue(jobData('run-3', 'acme/shop#2'), 'bob', 'd3')).toEqual({ accepted: true });
    await store.close();
  });

  it('finds the last run of an issue (for /fix retry) and counts runs by trigger (the loop guard)', async () => {
    const store = await open();
    const first = jobData('run-1');
    first.plan.instructions = 'round half up';
    await store.enqueue(first, 'alice', 'd1');
    await store.markReady('run-1', {});
    await store.claim('w', 1000);
    await store.finish('run-1', 'w', 'done', 'ok');
    const second = jobData('run-2');
    second.plan = { ...second.plan, kind: 'check' };
    await store.enqueue(second, null, 'd2');
    expect((await store.lastRun('acme/shop#1'))?.runId).toBe('run-2');
    expect(await store.countRuns('acme/shop#1', 'check')).toBe(1);
    expect(await store.countRuns('acme/shop#1', 'label')).toBe(1);
    expect(await store.countRuns('acme/shop#2', 'check')).toBe(0);
    expect(await store.lastRun('acme/shop#9')).toBeNull();
    await store.close();
  });

  it('records a delivery once', async () => {
    const store = await open();
    expect(await store.recordDelivery('abc', 'issues')).toBe(true);
    expect(await store.recordDelivery('abc', 'issues')).toBe(false);
    await store.close();
  });

  it('claims only ready jobs, holds them by lease, and lets a lost lease be taken again', async () => {
    const store = await open();
    await store.enqueue(jobData('run-1'), 'alice', 'd1');
    expect(await store.claim('w1', 1000)).toBeNull();
    await store.markReady('run-1', { statusCommentId: 77 });
    const claimed = await store.claim('w1', 50);
    expect(claimed).toMatchObject({ runId: 'run-1', state: 'running', tries: 1, data: { statusCommentId: 77 } });
    expect(await store.claim('w2', 1000)).toBeNull();
    expect(await store.heartbeat('run-1', 'w2', 1000)).toBeNull();
    await new Promise((r) => setTimeout(r, 80));
    const { requeued } = await store.recover(3, 60_000);
    expect(requeued.map((j) => j.runId)).toEqual(['run-1']);
    // The first worker comes back too late: its lease is gone, its finish changes nothing.
    expect(await store.claim('w2', 1000)).toMatchObject({ runId: 'run-1', tries: 2 });
    await store.finish('run-1', 'w1', 'done', 'late');
    expect((await store.get('run-1'))?.state).toBe('running');
    await store.finish('run-1', 'w2', 'done', 'ok', '/data/runs/run-1');
    expect(await store.get('run-1')).toMatchObject({ state: 'done', outcome: 'ok', artifactsDir: '/data/runs/run-1' });
    await store.close();
  });

  it('gives a job up after its tries, so someone can be told', async () => {
    const store = await open();
    await store.enqueue(jobData('run-1'), 'alice', 'd1');
    await store.markReady('run-1', {});
    for (let i = 0; i < 2; i++) {
      await store.claim(`w${i}`, 1);
      await new Promise((r) => setTimeout(r, 5));
      await store.recover(2, 60_000);
    }
    const job = await store.get('run-1');
    expect(job).toMatchObject({ state: 'failed', tries: 2 });
    expect(job?.outcome).toContain('stopped 2 time(s) without finishing');
  });

  it('passes a cancel to the worker through its heartbeat, with who asked', async () => {
    const store = await open();
    await store.enqueue(jobData('run-1'), 'alice', 'd1');
    await store.markReady('run-1', {});
    await store.claim('w1', 10_000);
    expect(await store.requestCancel('acme/shop#1', 'bob')).toMatchObject({ runId: 'run-1' });
    expect(await store.heartbeat('run-1', 'w1', 10_000, 'attempt 2/5')).toEqual({ cancelRequestedBy: 'bob' });
    expect((await store.active('acme/shop#1'))?.progress).toBe('attempt 2/5');
    expect((await store.events('run-1')).map((e) => e.kind)).toEqual(['queued', 'claimed', 'cancel-requested']);
    await store.close();
  });

  });
}
