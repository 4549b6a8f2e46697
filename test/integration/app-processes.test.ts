// The App as separate processes, as it is deployed: `fixloop serve` killed with SIGKILL mid-run and
// started again on the same data directory; and a web process that only stores deliveries next to a
// `fixloop worker` on the shared PostgreSQL store. GitHub is a stand-in HTTP server (the app runs in
// child processes, out of nock's reach); git is served by git's own http-backend, demanding the token.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/jobs/postgres-store.ts';
import type { RunStore } from '../../src/jobs/run-store.ts';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';
import { BUGGY_SHOP, FIXED_DISCOUNT } from '../fixtures/shop.ts';
import { watchOutput } from '../support/child-output.ts';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';
import { examplePayload } from '../support/github-app-harness.ts';
import { createBareRepoFrom, startGitHttpServer, type GitHttpServer } from '../support/git-http-server.ts';
import { FIXLOOP_BIN } from '../support/run-cli.ts';

const children: ChildProcess[] = [];
const dirs: string[] = [];
const cleanups: Array<() => Promise<void>> = [];
let github: FakeGitHub | null = null;
let gitServer: GitHttpServer | null = null;

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await github?.close();
  await gitServer?.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await removeAll(dirs);
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A repository with the shop's bug behind a git server, a stand-in GitHub, and the App's settings. */
async function world(scriptSeconds: number) {
  const token = `ghs_${randomBytes(18).toString('hex')}`;
  gitServer = await startGitHttpServer({
    requiredAuthorization: `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`,
  });
  const work = await makeRepo(BUGGY_SHOP);
  dirs.push(work);
  const cloneUrl = await createBareRepoFrom(gitServer, 'hello-world', work);
  // The engine takes its time, so a kill lands in the middle of the attempt.
  const config = `test:\n  command: node --test\nengines: [script]\nscript:\n  command: "sleep ${scriptSeconds} && sed -i 's/total > 100/total >= 100/' src/discount.js"\nloop:\n  maxAttempts: 2\n`;
  github = await startFakeGitHub({ token, config });
  const dataDir = await mkdtemp(join(tmpdir(), 'fixloop-processes-'));
  dirs.push(dataDir);
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const env = {
    PATH: process.env.PATH ?? '',
    APP_ID: '1',
    PRIVATE_KEY: key,
    WEBHOOK_SECRET: 'secret',
    HOST: '127.0.0.1',
    GHE_HOST: github.host,
    GHE_PROTOCOL: 'http',
    LOG_FORMAT: 'json' as const,
    LOG_LEVEL: 'info' as const,
    FIXLOOP_DATA_DIR: dataDir,
    FIXLOOP_LEASE_SECONDS: '2',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
  };

  const start = async (command: 'serve' | 'worker', extra: Record<string, string> = {}) => {
    const port = await freePort();
    const child = spawn(process.execPath, [FIXLOOP_BIN, command], {
      cwd: dataDir,
      env: { ...env, PORT: String(port), ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const out = watchOutput(child);
    await out.until(command === 'serve' ? 'Listening on' : 'worker started');
    return { child, port, output: out.text };
  };

  const label = async (port: number) => {
    const payload = examplePayload('issues', 'labeled');
    payload.label.name = 'fixloop';
    payload.repository.clone_url = cloneUrl;
    payload.repository.default_branch = 'main';
    const body = JSON.stringify(payload);
    return fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issues',
        'x-github-delivery': `delivery-${randomBytes(4).toString('hex')}`,
        'x-hub-signature-256': `sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`,
      },
      body,
    });
  };

  /** The run ended with a pull request, the branch holds the fix, and the token leaked nowhere. */
  const expectPublished = async (store: RunStore, outputs: string[]) => {
    await until(async () => (await store.list(5))[0]?.state === 'done', 60_000, 'the run to complete');
    const [run] = await store.list(5);
    expect(run?.outcome).toContain('Pull request #77');
    expect(github?.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/pulls'))).toHaveLength(1);
    const statusUpdates = github?.requests.filter((r) => r.method === 'PATCH' && r.path.includes('/issues/comments/')) ?? [];
    expect(JSON.stringify(statusUpdates.at(-1)?.body)).toContain('opened #77');
    const bare = join(gitServer?.root ?? '', 'hello-world.git');
    const branch = git(bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/fixloop/').trim();
    expect(git(bare, 'show', `${branch}:src/discount.js`)).toBe(FIXED_DISCOUNT);
    for (const output of outputs) expect(output).not.toContain(token);
    return run?.runId ?? '';
  };

  return { dataDir, start, label, expectPublished };
}

describe('the App in separate processes', () => {
  it('completes a run whose process was killed with SIGKILL mid-run, after a restart', async () => {
    const w = await world(4);
    const first = await w.start('serve');
    expect((await w.label(first.port)).status).toBe(200);
    // The run is under way (its check run exists) when the process dies.
    await until(
      () => (github?.requests ?? []).some((r) => r.method === 'POST' && r.path.endsWith('/check-runs')),
      30_000,
      'the run to start',
    );
    await new Promise((r) => setTimeout(r, 1000));
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await w.start('serve');
    const store = await openSqliteStore(w.dataDir);
    try {
      const runId = await w.expectPublished(store, [first.output(), second.output()]);
      const trail = (await store.events(runId)).map((e) => e.kind);
      expect(trail.filter((k) => k === 'claimed')).toHaveLength(2);
      expect(trail).toContain('recovered');
      expect(trail.at(-1)).toBe('done');
    } finally {
      await store.close();
    }
  }, 120_000);

  const pgUrl = process.env.FIXLOOP_TEST_DATABASE_URL;
  it.runIf(pgUrl)(
    'runs with a web process that only stores deliveries and a worker on the shared PostgreSQL store, pg-boss dispatching',
    async () => {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      cleanups.push(async () => {
        const a = new pg.Client({ connectionString: pgUrl });
        await a.connect();
        await a.query(`DROP SCHEMA ${schema} CASCADE`);
        await a.query(`DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
        await a.end();
      });
      const databaseUrl = `${pgUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const w = await world(1);
      const shared = { DATABASE_URL: databaseUrl, FIXLOOP_PGBOSS_SCHEMA: `${schema}_boss` };
      const web = await w.start('serve', { ...shared, FIXLOOP_WORKERS: '0' });
      expect((await w.label(web.port)).status).toBe(200);
      // Stored, answered, and nothing else: no GitHub call comes from the web process.
      await new Promise((r) => setTimeout(r, 1500));
      expect(github?.requests).toEqual([]);

      const worker = await w.start('worker', shared);
      const store = await openPostgresStore(databaseUrl);
      try {
        await w.expectPublished(store, [web.output(), worker.output()]);
      } finally {
        await store.close();
      }
    },
    120_000,
  );
});
