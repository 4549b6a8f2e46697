// `fixloop serve` as an operator starts it: Probot's environment, a real HTTP server, signed webhooks.
import { spawn } from 'node:child_process';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchOutput } from '../support/child-output.ts';
import { examplePayload } from '../support/github-app-harness.ts';
import { FIXLOOP_BIN, runCli, type CliRun } from '../support/run-cli.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fixloop-serve-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('fixloop serve', () => {
  it('refuses to start without a webhook secret, naming the variable', async () => {
    const result = await runCli(['serve'], { cwd: dir, env: { APP_ID: '1', PRIVATE_KEY: 'x', WEBHOOK_SECRET: '' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('WEBHOOK_SECRET is not set');
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('refuses a private key file that does not exist, naming it', async () => {
    const result = await runCli(['serve'], {
      cwd: dir,
      env: { APP_ID: '1', PRIVATE_KEY_PATH: join(dir, 'missing.pem'), WEBHOOK_SECRET: 's' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PRIVATE_KEY_PATH: no such file');
  });

  it('explains a first start from .env.example in one message: what to set, no stack trace, nothing downloaded', async () => {
    await copyFile(new URL('../../.env.example', import.meta.url), join(dir, '.env'));
    const result = await serveOnce(cleanEnv());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('APP_ID is not set');
    expect(result.stderr).toContain(
      `PRIVATE_KEY_PATH: no such file \`./fixloop.private-key.pem\` (${join(dir, 'fixloop.private-key.pem')})`,
    );
    expect(result.stderr).toContain('WEBHOOK_SECRET is not set');
    expect(result.stderr.match(/^fixloop: /gm)).toHaveLength(1);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toMatch(/smee|npx|get-private-key/i);
  });

  it('names a private key that is not one, and a webhook proxy whose client is not installed, instead of installing it', async () => {
    await writeFile(join(dir, 'key.pem'), 'not a key\n');
    const result = await serveOnce(
      cleanEnv({ APP_ID: '12', PRIVATE_KEY_PATH: 'key.pem', WEBHOOK_SECRET: 's', WEBHOOK_PROXY_URL: 'https://smee.io/abc' }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PRIVATE_KEY_PATH: `key.pem`');
    expect(result.stderr).toContain('is not a PEM private key');
    expect(result.stderr).toContain('WEBHOOK_PROXY_URL is set but smee-client is not installed');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('stops with a message naming FIXLOOP_DATA_DIR when the run store is corrupt, not a crash loop', async () => {
    const data = join(dir, 'data');
    await mkdir(data);
    await writeFile(join(data, 'fixloop.db'), 'not a database, just some text'.repeat(40));
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs1', format: 'pem' })
      .toString();
    const result = await runCli(['serve'], {
      cwd: dir,
      env: { APP_ID: '1', PRIVATE_KEY: key, WEBHOOK_SECRET: 's', PORT: String(await freePort()), FIXLOOP_DATA_DIR: data },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('FIXLOOP_DATA_DIR: the run store');
    expect(result.stderr).toContain('Move it aside');
    expect(result.stderr).not.toMatch(/\.ts:\d+/);
  });

  it('serves signed webhooks and rejects unsigned ones', async () => {
    const port = await freePort();
    const secret = 'a-webhook-secret';
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs1', format: 'pem' })
      .toString();
    const child = spawn(process.execPath, [FIXLOOP_BIN, 'serve'], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        APP_ID: '1',
        PRIVATE_KEY: key,
        WEBHOOK_SECRET: secret,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_FORMAT: 'json',
        FIXLOOP_DATA_DIR: join(dir, 'data'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = watchOutput(child);
    try {
      await out.until('Listening on');
      // A comment that is not a command: handled without a single call to GitHub.
      const payload = examplePayload('issue_comment', 'created');
      payload.comment.body = 'Looks good to me.';
      const body = JSON.stringify(payload);
      const post = (signature: string) =>
        fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-github-event': 'issue_comment',
            'x-github-delivery': 'd-1',
            'x-hub-signature-256': signature,
          },
          body,
        });
      const signed = await post(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
      expect(signed.status).toBe(200);
      const forged = await post(`sha256=${createHmac('sha256', 'wrong').update(body).digest('hex')}`);
      expect(forged.status).toBeGreaterThanOrEqual(400);
      expect(out.text()).not.toContain(key.split('\n')[1] ?? 'unreachable');
      expect(out.text()).not.toContain(secret);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

/** `fixloop serve` with exactly `env`, to its end. */
function serveOnce(env: Record<string, string>, flags: string[] = []): Promise<CliRun> {
  return runCli(['serve', ...flags], { cwd: dir, env, exactEnv: true });
}

/** Only what a shell would hand over: no variable of this test process leaks into the server. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra };
}

const key = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const SECRET = 'the-webhook-secret';
const servers: Array<{ kill: () => void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.kill();
});

/** `fixloop serve` running with a real key and secret; its output (stdout and stderr) as it comes. */
async function startServe(extra: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [FIXLOOP_BIN, 'serve'], {
    cwd: dir,
    env: cleanEnv({
      APP_ID: '1',
      PRIVATE_KEY: key(),
      WEBHOOK_SECRET: SECRET,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_FORMAT: 'json',
      FIXLOOP_DATA_DIR: join(dir, 'data'),
      ...extra,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push({ kill: () => child.kill('SIGKILL') });
  const out = watchOutput(child);
  const until = async (what: RegExp | string) => {
    await out.until(what);
    expect(out.text()).toMatch(what);
  };
  await until('Listening on');
  const url = `http://127.0.0.1:${port}`;
  const deliver = (payload: unknown, delivery: string, secret = SECRET) => {
    const body = JSON.stringify(payload);
    return fetch(`${url}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issue_comment',
        'x-github-delivery': delivery,
        'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
      },
      body,
    });
  };
  return { url, deliver, until, output: out.text, stop: () => child.kill('SIGTERM') };
}

/** A `/fix` comment: worth storing, so its handling reaches GitHub's API. */
function fixComment(marker: string) {
  const payload = examplePayload('issue_comment', 'created');
  payload.comment.body = `/fix the total ${marker}`;
  payload.comment.user.type = 'User';
  payload.sender.type = 'User';
  return payload;
}

describe('fixloop serve, operated', () => {
  it('says what it is at /, answers /ping, and logs a delivery with a bad signature in one short line without its payload', async () => {
    const server = await startServe();
    const about = await fetch(`${server.url}/`);
    expect(about.status).toBe(200);
    const described = (await about.json()) as Record<string, string>;
    expect(described.webhook).toContain('POST /api/github/webhooks');
    expect(described.health).toContain('GET /ping');
    const ping = await fetch(`${server.url}/ping`);
    expect([ping.status, await ping.text()]).toEqual([200, 'PONG']);
    expect((await fetch(`${server.url}/elsewhere`)).status).toBe(404);

    const before = server.output().length;
    const marker = 'payload-marker-7f3a';
    const forged = await server.deliver(fixComment(marker), 'forged-delivery-1', 'not-the-secret');
    expect(forged.status).toBe(400);
    await server.until('forged-delivery-1');
    await new Promise((r) => setTimeout(r, 300));
    const logged = server.output().slice(before);
    expect(logged.length).toBeLessThan(2048);
    expect(logged).toContain('signature does not match');
    expect(logged).toContain('"event":"issue_comment"');
    expect(logged).not.toContain(marker);
    expect(logged).not.toContain('Hello-World');
    expect(logged).not.toMatch(/^\s+at |"stack"/m);
  });

  it('logs a delivery whose handling throws with its error, never its payload', async () => {
    const server = await startServe();
    const marker = 'payload-marker-b21c';
    const payload = fixComment(marker);
    payload.issue.title = marker;
    // No comment at all: reading it throws in the intake, which answers 500.
    delete (payload as { comment?: unknown }).comment;
    const before = server.output().length;
    expect((await server.deliver(payload, 'broken-delivery-1')).status).toBe(500);
    await server.until(/broken-delivery-1[\s\S]*TypeError/);
    await new Promise((r) => setTimeout(r, 300));
    const logged = server.output().slice(before);
    expect(logged).toContain("Cannot read properties of undefined (reading 'user')");
    expect(logged).not.toContain(marker);
    expect(logged).not.toContain('Hello-World');
  });

  it('logs a delivery that names no installation with its id and why, and acknowledges it', async () => {
    const server = await startServe();
    const payload = fixComment('x');
    delete (payload as { installation?: unknown }).installation;
    expect((await server.deliver(payload, 'no-installation-1')).status).toBe(200);
    await server.until(/"delivery":"no-installation-1"[^\n]*names no installation/);
    expect(server.output()).not.toContain('installationId option is required');
  });

  it('ends a delivery as failed, logged with its id and reason, when GitHub accepts connections and never answers; `fixloop runs` lists it', async () => {
    const silent = await silentServer();
    try {
      const server = await startServe({
        GHE_HOST: `127.0.0.1:${silent.port}`,
        GHE_PROTOCOL: 'http',
        FIXLOOP_GITHUB_TIMEOUT_SECONDS: '1',
      });
      expect((await server.deliver(fixComment('y'), 'stuck-delivery-1')).status).toBe(200);
      await server.until(/"delivery":"stuck-delivery-1"[^\n]*did not answer[^\n]*"msg":"delivery failed"/);
      expect(silent.connections()).toBeGreaterThan(0);
      server.stop();
      const runs = await runCli(['runs'], { cwd: dir, env: cleanEnv({ FIXLOOP_DATA_DIR: join(dir, 'data') }) });
      expect(runs.code).toBe(0);
      expect(runs.stdout).toContain('No runs recorded');
      expect(runs.stdout).toMatch(/stuck-delivery-1\s+failed\s+.*issue_comment\.created: GitHub's API did not answer/);
    } finally {
      silent.close();
    }
  });
});

describe('fixloop serve --register', () => {
  it("serves Probot's page that registers the App from app.yml, with no smee.io channel and nothing installed", async () => {
    await copyFile(new URL('../../app.yml', import.meta.url), join(dir, 'app.yml'));
    await copyFile(new URL('../../.env.example', import.meta.url), join(dir, '.env'));
    const port = await freePort();
    const child = spawn(process.execPath, [FIXLOOP_BIN, 'serve', '--register'], {
      cwd: dir,
      env: cleanEnv({ PORT: String(port), HOST: '127.0.0.1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    servers.push({ kill: () => child.kill('SIGKILL') });
    const out = watchOutput(child);
    await out.until('Listening on');
    const page = await fetch(`http://127.0.0.1:${port}/probot`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="manifest"');
    expect(html).toContain('"default_events":["issues","issue_comment","pull_request_review","check_suite","workflow_run"]');
    expect(out.text()).toContain('setup mode');
    expect(out.text()).not.toMatch(/smee|npx|get-private-key|^\s+at /im);
  });

  it('is refused in production, saying where to register instead', async () => {
    const result = await serveOnce(cleanEnv({ NODE_ENV: 'production' }), ['--register']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--register runs on a development machine');
  });
});

/** A "GitHub" that accepts every connection and never says a word. */
async function silentServer(): Promise<{ port: number; connections: () => number; close: () => void }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => sockets.length,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
