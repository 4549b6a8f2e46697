// The run store's contract, one suite for every implementation (embedded SQLite, shared
// PostgreSQL): one active run per key, deliveries once, cancels, lookups, and the daily spend ledger;
// and, for the store whose queue claims with leases (SQLite), leases and recovery. (On PostgreSQL,
// pg-boss holds the jobs: postgres-store.test.ts and pgboss-queue.test.ts check the same guarantees.)
import { newRunJob } from '../../src/forge/run-job-data.ts';
import { describe, expect, it } from 'vitest';
import type { LeasedRunStore, RunStore, StoredJob } from '../../src/jobs/run-store.ts';
import { jobData } from '../support/job-data.ts';

/** How a worker holds a job on a store: a lease it claims, or the attempt its queue engine handed it. */
export interface Holding<S extends RunStore> {
  /** `worker` takes the ready run `runId`. */
  take(store: S, runId: string, worker: string): Promise<StoredJob | null>;
  /** The holder's beat: saves its progress and answers the cancel request. */
  beat(store: S, runId: string, worker: string, progress?: string): Promise<{ cancelRequestedBy: string | null } | null>;
}

/** The embedded store's holding: a lease claimed and renewed. */
export const leased: Holding<LeasedRunStore> = {
  take: (store, _runId, worker) => store.claim(worker, 10_000),
  beat: (store, runId, worker, progress) => store.heartbeat(runId, worker, 10_000, progress),
};

/** `open` gives a fresh store for each test; `reopen` opens again the store `closed` had (after its close). */
export function describeRunStore<S extends RunStore>(
  name: string,
  open: () => Promise<S>,
  reopen: (closed: S) => Promise<S>,
  holding: Holding<S>,
): void {
  describe(`the run store contract (${name})`, () => {
    it('allows one active run per issue or pull request, pointing at it', async () => {
      const store = await open();
      await store.enqueue(newRunJob(jobData('run-1')), 'alice', 'd1');
      const second = await store.enqueue(newRunJob(jobData('run-2')), 'bob', 'd2');
      expect(second).toMatchObject({ accepted: false, active: { runId: 'run-1', state: 'pending' } });
      expect(await store.enqueue(newRunJob(jobData('run-3', 'acme/shop#2')), 'bob', 'd3')).toEqual({ accepted: true });
      await store.close();
    });

    it('finds the last run of an issue (for /fix retry) and counts runs by trigger (the loop guard)', async () => {
      const store = await open();
      const first = jobData('run-1');
      first.plan.instructions = 'round half up';
      await store.enqueue(newRunJob(first), 'alice', 'd1');
      await store.markReady('run-1', {});
      await holding.take(store, 'run-1', 'w');
      await store.finish('run-1', 'w', 'done', 'ok');
      const second = jobData('run-2');
      second.plan = { ...second.plan, kind: 'check' };
      await store.enqueue(newRunJob(second), null, 'd2');
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

    it('passes a cancel to the worker through its heartbeat, with who asked', async () => {
      const store = await open();
      await store.enqueue(newRunJob(jobData('run-1')), 'alice', 'd1');
      await store.markReady('run-1', {});
      await holding.take(store, 'run-1', 'w1');
      expect(await store.requestCancel('acme/shop#1', 'bob')).toMatchObject({ runId: 'run-1' });
      expect(await holding.beat(store, 'run-1', 'w1', 'attempt 2/5')).toEqual({ cancelRequestedBy: 'bob' });
      expect((await store.active('acme/shop#1'))?.progress).toBe('attempt 2/5');
      expect((await store.events('run-1')).map((e) => e.kind)).toEqual(['queued', 'claimed', 'cancel-requested']);
      await store.close();
    });
  });

  describe(`the spend ledger (${name})`, () => {
    it('is zero for a repository or a day with nothing spent', async () => {
      const store = await open();
      expect(await store.spentOn('acme/shop', '2025-03-01')).toEqual({ usd: 0, tokens: 0 });
      await store.close();
    });

    it('adds up what is spent', async () => {
      const store = await open();
      await store.addSpend('acme/shop', '2025-03-01', { usd: 0.25, tokens: 1200 });
      await store.addSpend('acme/shop', '2025-03-01', { usd: 0.5, tokens: 800 });
      await store.addSpend('acme/shop', '2025-03-01', { usd: 0, tokens: 0 });
      const spent = await store.spentOn('acme/shop', '2025-03-01');
      expect(spent.tokens).toBe(2000);
      expect(spent.usd).toBeCloseTo(0.75, 9);
      await store.close();
    });

    it('keeps days and repositories apart', async () => {
      const store = await open();
      await store.addSpend('acme/shop', '2025-03-01', { usd: 1, tokens: 10 });
      await store.addSpend('acme/shop', '2025-03-02', { usd: 2, tokens: 20 });
      await store.addSpend('acme/cart', '2025-03-01', { usd: 4, tokens: 40 });
      expect(await store.spentOn('acme/shop', '2025-03-01')).toEqual({ usd: 1, tokens: 10 });
      expect(await store.spentOn('acme/shop', '2025-03-02')).toEqual({ usd: 2, tokens: 20 });
      expect(await store.spentOn('acme/cart', '2025-03-01')).toEqual({ usd: 4, tokens: 40 });
      expect(await store.spentOn('acme/cart', '2025-03-02')).toEqual({ usd: 0, tokens: 0 });
      await store.close();
    });

    it('loses no increment when many runs add at once', async () => {
      const store = await open();
      // The row exists first, so each add updates it: a read-then-write would lose increments here.
      await store.addSpend('acme/shop', '2025-03-01', { usd: 1, tokens: 1 });
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          store.addSpend('acme/shop', '2025-03-01', { usd: 0.01 * (i + 1), tokens: 1000 + i }),
        ),
      );
      const spent = await store.spentOn('acme/shop', '2025-03-01');
      expect(spent.tokens).toBe(1 + 50 * 1000 + (49 * 50) / 2);
      expect(Math.abs(spent.usd - (1 + 0.01 * ((50 * 51) / 2)))).toBeLessThan(1e-9);
      await store.close();
    });

    it('refuses a malformed day or a negative, non-finite or fractional amount, naming it', async () => {
      const store = await open();
      await expect(store.addSpend('acme/shop', '2025-3-1', { usd: 1, tokens: 1 })).rejects.toThrow(TypeError);
      await expect(store.addSpend('acme/shop', '2025-03-01T00:00:00Z', { usd: 1, tokens: 1 })).rejects.toThrow(/`day`/);
      await expect(store.spentOn('acme/shop', 'today')).rejects.toThrow(/`day`/);
      await expect(store.addSpend('acme/shop', '2025-03-01', { usd: -0.01, tokens: 1 })).rejects.toThrow(/`spend\.usd`/);
      await expect(store.addSpend('acme/shop', '2025-03-01', { usd: Number.NaN, tokens: 1 })).rejects.toThrow(/`spend\.usd`/);
      await expect(store.addSpend('acme/shop', '2025-03-01', { usd: Number.POSITIVE_INFINITY, tokens: 1 })).rejects.toThrow(
        /`spend\.usd`/,
      );
      await expect(store.addSpend('acme/shop', '2025-03-01', { usd: 1, tokens: -5 })).rejects.toThrow(/`spend\.tokens`/);
      await expect(store.addSpend('acme/shop', '2025-03-01', { usd: 1, tokens: 1.5 })).rejects.toThrow(/`spend\.tokens`/);
      await expect(store.addSpend('', '2025-03-01', { usd: 1, tokens: 1 })).rejects.toThrow(/`repository`/);
      expect(await store.spentOn('acme/shop', '2025-03-01')).toEqual({ usd: 0, tokens: 0 });
      await store.close();
    });

    it('keeps the totals across a close and a reopen', async () => {
      const store = await open();
      await store.addSpend('acme/shop', '2025-03-01', { usd: 1.5, tokens: 300 });
      await store.close();
      const again = await reopen(store);
      expect(await again.spentOn('acme/shop', '2025-03-01')).toEqual({ usd: 1.5, tokens: 300 });
      await again.addSpend('acme/shop', '2025-03-01', { usd: 0.5, tokens: 700 });
      expect(await again.spentOn('acme/shop', '2025-03-01')).toEqual({ usd: 2, tokens: 1000 });
      await again.close();
    });
  });
}

/** The embedded queue's leases (SQLite): the store decides who holds a job, until when, and takes back what a dead worker held. */
export function describeJobLeases(name: string, open: () => Promise<LeasedRunStore>): void {
  describe(`the store's leases (${name})`, () => {
    it('claims only ready jobs, holds them by lease, and lets a lost lease be taken again', async () => {
      const store = await open();
      await store.enqueue(newRunJob(jobData('run-1')), 'alice', 'd1');
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
      await store.enqueue(newRunJob(jobData('run-1')), 'alice', 'd1');
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
  });
}
