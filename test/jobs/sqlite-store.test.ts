// The embedded run store: migrations, one active run per key, leases, recovery, the audit trail, and
// clear errors for a data directory that cannot be used.
import { newRunJob, runJobData } from '../../src/forge/run-job-data.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, StoreError } from '../../src/jobs/sqlite-store.ts';
import { SQLITE_MIGRATIONS } from '../../src/jobs/sqlite/migrations.ts';
import { jobData } from '../support/job-data.ts';
import { describeJobLeases, describeRunStore, leased } from './run-store-conformance.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fixloop-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// The directory is per test: opening it again reopens that test's store.
describeRunStore(
  'SQLite',
  () => openSqliteStore(dir),
  () => openSqliteStore(dir),
  leased,
);
describeJobLeases('SQLite', () => openSqliteStore(dir));

describe('the SQLite run store', () => {
  it('keeps runs across a reopen, and migrates once', async () => {
    const first = await openSqliteStore(dir);
    expect(await first.enqueue(newRunJob(jobData('run-1')), 'alice', 'd1')).toEqual({ accepted: true });
    await first.close();
    const again = await openSqliteStore(dir);
    const stored = await again.get('run-1');
    expect(stored && runJobData(stored).plan.repo).toBe('shop');
    expect((await again.list(10)).map((j) => j.runId)).toEqual(['run-1']);
    await again.close();
  });

  it('moves runs stored before the trigger column into it, so the loop guard still counts them', async () => {
    // A store as fixloop wrote it at schema 3: the trigger kind only inside the job's data.
    const { DatabaseSync } = await import('node:sqlite');
    const old = new DatabaseSync(join(dir, 'fixloop.db'));
    for (const migration of SQLITE_MIGRATIONS.slice(0, 3)) old.exec(migration);
    old.exec('PRAGMA user_version = 3');
    const data = { ...jobData('run-old'), plan: { ...jobData('run-old').plan, kind: 'check' } };
    old
      .prepare(`INSERT INTO jobs (run_id, key, state, data, enqueued_at) VALUES ('run-old', 'acme/shop#1', 'done', ?, 1)`)
      .run(JSON.stringify(data));
    old.close();
    const store = await openSqliteStore(dir);
    expect(await store.countRuns('acme/shop#1', 'check')).toBe(1);
    expect(await store.countRuns('acme/shop#1', 'label')).toBe(0);
    await store.close();
  });

  it('keeps an append-only audit trail', async () => {
    const store = await openSqliteStore(dir);
    await store.append('run-1', 'gate', { passed: false });
    await store.close();
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(join(dir, 'fixloop.db'));
    expect(() => db.exec("UPDATE events SET kind = 'forged'")).toThrow(/append-only/);
    expect(() => db.exec('DELETE FROM events')).toThrow(/append-only/);
    db.close();
  });

  it('says what is wrong with a corrupt store or an unusable data directory, naming FIXLOOP_DATA_DIR', async () => {
    await writeFile(join(dir, 'fixloop.db'), 'this is not a database'.repeat(100));
    const corrupt = await openSqliteStore(dir).catch((e: unknown) => e);
    expect(corrupt).toBeInstanceOf(StoreError);
    expect((corrupt as StoreError).code).toBe('STORE_CORRUPT');
    expect((corrupt as Error).message).toMatch(/FIXLOOP_DATA_DIR: the run store .*fixloop\.db cannot be used: .*Move it aside/);

    const file = join(dir, 'a-file');
    await writeFile(file, '');
    const notADir = await openSqliteStore(join(file, 'data')).catch((e: unknown) => e);
    expect((notADir as StoreError).code).toBe('STORE_UNAVAILABLE');
    expect((notADir as Error).message).toContain('FIXLOOP_DATA_DIR: cannot open the run store');
  });
});
