// `fixloop replay <id>` and `fixloop publish <id>` on a run the App stored: the verified patch is
// verified again from scratch (setup with the dependency cache, the environment check, as every run),
// or published again after a failed publication.
import { newRunJob, type RunJobData } from '../../src/forge/run-job-data.ts';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { publishRun } from '../../src/cli/publish-command.ts';
import type { Forge } from '../../src/forge/forge.ts';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';
import { runFix } from '../../src/loop/local-run.ts';
import type { RepoConfig } from '../../src/core/repo-config.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { BUGGY_SHOP, FIXED_DISCOUNT } from '../fixtures/shop.ts';
import { git, makeRepo } from '../support/git-fixture.ts';
import { jobData } from '../support/job-data.ts';
import { runCli } from '../support/run-cli.ts';

let dir: string;
let dataDir: string;
let work: string;
let bare: string;
let stored: RunJobData;
const RUN = 'mwtr-abc123';

/** Another App run on the same repository with `config` instead, whose stored result is RUN's verified one. */
async function storeRunLike(runId: string, number: number, config: Partial<RepoConfig>): Promise<void> {
  const data: RunJobData = {
    ...stored,
    runId,
    key: `acme/shop#${number}`,
    plan: { ...stored.plan, number },
    config: { ...stored.config, ...config },
  };
  const store = await openSqliteStore(dataDir);
  await store.enqueue(newRunJob(data), 'alice', `d${number}`);
  await store.markReady(runId, { statusCommentId: 42 });
  await store.claim('w', 60_000);
  await store.finish(runId, 'w', 'done', 'verified, publication failed: push refused', join(dataDir, 'runs', RUN));
  await store.close();
}

/** The folder as the setup leaves it, copied back to `dir` before each test: every test starts from it. */
let pristine: string;

// One verified App run for the whole file (a full fix loop): each test gets a fresh copy of it, at
// the same path, so what one test stores, pushes or replays never reaches the next.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fixloop-replay-'));
  dataDir = join(dir, 'data');
  work = await makeRepo(BUGGY_SHOP);
  bare = join(dir, 'remote.git');
  execFileSync('git', ['clone', '-q', '--bare', work, bare]);
  // An App run that verified a fix, as the worker leaves it: a finished job and its artifacts.
  const data = jobData(RUN, 'acme/shop#1');
  data.plan = { ...data.plan, cloneUrl: bare, pushUrl: bare, title: 'No discount at 100' };
  data.config = { ...data.config, test: { ...data.config.test, command: 'node --test' } };
  data.statusCommentId = 42;
  stored = data;
  const artifactsDir = join(dataDir, 'runs', RUN);
  const result = await runFix(
    {
      runId: RUN,
      repository: { cloneUrl: bare, ref: 'main', sha: null, baseRef: null },
      trigger: { kind: 'label', number: 1, deliveryId: 'd', actor: 'alice' },
      goal: 'fix',
      hints: [],
      config: data.config,
    },
    { sandbox: createProcessSandbox(), artifactsRoot: join(dataDir, 'runs'), artifactsDir, tmpRoot: dir },
  );
  expect(result.status).toBe('tests_green');
  const store = await openSqliteStore(dataDir);
  await store.enqueue(newRunJob(data), 'alice', 'd');
  await store.markReady(RUN, { statusCommentId: 42 });
  await store.claim('w', 60_000);
  await store.finish(RUN, 'w', 'done', 'verified, publication failed: push refused', artifactsDir);
  await store.close();
  pristine = `${dir}-pristine`;
  await cp(dir, pristine, { recursive: true });
});

beforeEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await cp(pristine, dir, { recursive: true });
});

afterAll(async () => {
  await Promise.all([dir, pristine, work].filter(Boolean).map((d) => rm(d, { recursive: true, force: true })));
});

describe('fixloop replay', () => {
  it('verifies the stored patch again on a fresh clone and records it', async () => {
    const run = await runCli(['replay', RUN], { cwd: dir, env: { FIXLOOP_DATA_DIR: dataDir, APP_ID: '' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Baseline on the fresh clone: 1 failing of 3');
    expect(run.stdout).toMatch(/fail → pass: .*the discount starts at 100/);
    expect(run.stdout).toContain('Verified again.');
    const store = await openSqliteStore(dataDir);
    expect((await store.events(RUN)).at(-1)).toMatchObject({ kind: 'replayed', data: { passed: true } });
    await store.close();
  });

  it("gives the setup the App's dependency cache, as the run had it", async () => {
    // The setup proves what it was given: it writes into the npm cache it was pointed at.
    const setup = `node -e "const fs = require('fs'); fs.mkdirSync(process.env.npm_config_cache, { recursive: true }); fs.writeFileSync(process.env.npm_config_cache + '/seen', 'setup')"`;
    await storeRunLike('mwtr-cache1', 2, { setup: { command: setup, timeout: 60 } });
    const cacheDir = join(dir, 'cache');
    const run = await runCli(['replay', 'mwtr-cache1'], {
      cwd: dir,
      env: { FIXLOOP_DATA_DIR: dataDir, FIXLOOP_CACHE_DIR: cacheDir, APP_ID: '' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Verified again.');
    const repositories = await readdir(join(cacheDir, 'repositories'));
    expect(repositories).toHaveLength(1);
    expect(existsSync(join(cacheDir, 'repositories', repositories[0] ?? '', 'npm', 'seen'))).toBe(true);
  });

  it('reports a test command that is not found as an error with its cause, not as a patch that failed', async () => {
    await storeRunLike('mwtr-noenv1', 3, { test: { ...stored.config.test, command: 'fixloop-no-such-runner --test' } });
    const run = await runCli(['replay', 'mwtr-noenv1'], { cwd: dir, env: { FIXLOOP_DATA_DIR: dataDir, APP_ID: '' } });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      'the test command `fixloop-no-such-runner --test` failed: `fixloop-no-such-runner` was not found',
    );
    expect(run.stdout).not.toContain('NOT verified');
    const store = await openSqliteStore(dataDir);
    expect((await store.events('mwtr-noenv1')).at(-1)).toMatchObject({
      kind: 'replayed',
      data: { passed: false, error: 'TEST_COMMAND_NOT_FOUND' },
    });
    await store.close();
  });

  it('names a run without a verified patch', async () => {
    const run = await runCli(['replay', 'nope'], { cwd: dir, env: { FIXLOOP_DATA_DIR: dataDir } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no run `nope`');
  });
});

describe('fixloop publish', () => {
  it('needs the App credentials, and says which', async () => {
    const run = await runCli(['publish', RUN], {
      cwd: dir,
      env: { FIXLOOP_DATA_DIR: dataDir, APP_ID: '', PRIVATE_KEY: '', PRIVATE_KEY_PATH: '' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('set APP_ID and PRIVATE_KEY or PRIVATE_KEY_PATH');
  });

  it('pushes the stored patch, opens the pull request and updates the status comment', async () => {
    const calls: string[] = [];
    let body = '';
    const forge = {
      owner: 'acme',
      repo: 'shop',
      cloneAuth: async () => ({ header: 'Authorization: Basic dGVzdA==' }),
      openPullRequest: async (pr: { head: string; body: string }) => (
        calls.push(`pr ${pr.head}`),
        (body = pr.body),
        { number: 9, htmlUrl: 'https://example.invalid/pull/9' }
      ),
      addLabels: async () => void calls.push('labels'),
      updateComment: async (id: number) => void calls.push(`comment ${id}`),
    } as unknown as Forge;
    const out: string[] = [];
    await publishRun({ dataDir, runId: RUN, forgeFor: async () => forge, stdout: (t) => out.push(t) });
    const branch = /^pr (\S+)/.exec(calls[0] ?? '')?.[1] ?? '';
    expect(branch).toMatch(/^fixloop\/1-/);
    expect(git(bare, 'show', `${branch}:src/discount.js`)).toBe(FIXED_DISCOUNT);
    expect(body).toContain('Fixes #1');
    expect(body).toContain('✅ Verified fix');
    expect(calls).toContain('comment 42');
    expect(out.join('')).toContain('opened #9');
    const store = await openSqliteStore(dataDir);
    expect((await store.events(RUN)).at(-1)).toMatchObject({ kind: 'published', data: { pullRequest: 9 } });
    await store.close();
  });
});
