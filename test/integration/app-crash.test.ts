// `fixloop serve` killed with SIGKILL in the middle of a run, then started again on the same data
// directory: the run is taken up again once its lease expires and completes, and the audit trail
// shows both claims. GitHub is a stand-in HTTP server (the app runs in child processes, out of
// nock's reach); git is served by git's own http-backend, demanding the installation token.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';
import { BUGGY_SHOP, FIXED_DISCOUNT } from '../fixtures/shop.ts';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';
import { examplePayload } from '../support/github-app-harness.ts';
import { createBareRepoFrom, startGitHttpServer, type GitHttpServer } from '../support/git-http-server.ts';
import { FIXLOOP_BIN } from '../support/run-cli.ts';

const children: ChildProcess[] = [];
const dirs: string[] = [];
let github: FakeGitHub | null = null;
let gitServer: GitHttpServer | null = null;

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await github?.close();
  await gitServer?.close();
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

describe('fixloop serve across a crash', () => {
  it('completes a run whose process was killed with SIGKILL mid-run, after a restart', async () => {
    const token = `ghs_${randomBytes(18).toString('hex')}`;
    gitServer = await startGitHttpServer({ requiredAuthorization: `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}` });
    const work = await makeRepo(BUGGY_SHOP);
    dirs.push(work);
    const cloneUrl = await createBareRepoFrom(gitServer, 'hello-world', work);
    // The engine takes its time, so the kill lands in the middle of the attempt.
    const config = 'test:\n  command: node --test\nengines: [script]\nscript:\n  command: "sleep 4 && sed -i \'s/total > 100/total >= 100/\' src/discount.js"\nloop:\n  maxAttempts: 2\n';
    github = await startFakeGitHub({ token, config });
    const dataDir = await mkdtemp(join(tmpdir(), 'fixloop-crash-app-'));
    dirs.push(dataDir);
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

    const serve = async () => {
      const port = await freePort();
      const env = {
        PATH: process.env.PATH ?? '',
        APP_ID: '1', PRIVATE_KEY: key, WEBHOOK_SECRET: 'secret', PORT: String(port), HOST: '127.0.0.1',
        GHE_HOST: github?.host ?? '', GHE_PROTOCOL: 'http', LOG_FORMAT: 'json' as const, LOG_LEVEL: 'info' as const,
        FIXLOOP_DATA_DIR: dataDir, FIXLOOP_LEASE_SECONDS: '2', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1',
      };
      const child = spawn(process.execPath, [FIXLOOP_BIN, 'serve'], { cwd: dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let output = '';
      child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
      await until(() => output.includes('Listening on'), 20_000, 'the server to listen');
      return { child, port, output: () => output };
    };

    const first = await serve();
    const payload = examplePayload('issues', 'labeled');
    payload.label.name = 'fixloop';
    payload.repository.clone_url = cloneUrl;
    payload.repository.default_branch = 'main';
    const body = JSON.stringify(payload);
    const answer = await fetch(`http://127.0.0.1:${first.port}/api/github/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'issues', 'x-github-delivery': 'crash-1', 'x-hub-signature-256': `sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}` },
      body,
    });
    expect(answer.status).toBe(200);

    // The run is under way (its check run exists) when the process dies.
    await until(() => (github?.requests ?? []).some((r) => r.method === 'POST' && r.path.endsWith('/check-runs')), 30_000, 'the run to start');
    await new Promise((r) => setTimeout(r, 1000));
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await serve();
    const store = await openSqliteStore(dataDir);
    try {
      await until(async () => (await store.list(5))[0]?.state === 'done', 60_000, 'the run to complete after the restart');
      const [run] = await store.list(5);
      const trail = (await store.events(run?.runId ?? '')).map((e) => e.kind);
      expect(trail.filter((k) => k === 'claimed')).toHaveLength(2);
      expect(trail).toContain('recovered');
      expect(trail.at(-1)).toBe('done');
      expect(run?.outcome).toContain('Pull request #77');
    } finally {
      await store.close();
    }
    expect(github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/pulls'))).toHaveLength(1);
    const statusUpdates = github.requests.filter((r) => r.method === 'PATCH' && r.path.includes('/issues/comments/'));
    expect(JSON.stringify(statusUpdates.at(-1)?.body)).toContain('opened #77');
    const branch = git(join(gitServer.root, 'hello-world.git'), 'for-each-ref', '--format=%(refname:short)', 'refs/heads/fixloop/').trim();
    expect(git(join(gitServer.root, 'hello-world.git'), 'show', `${branch}:src/discount.js`)).toBe(FIXED_DISCOUNT);
    expect(second.output()).not.toContain(token);
  }, 120_000);
});
