// `fixloop serve` as an operator starts it: Probot's environment, a real HTTP server, signed webhooks.
import { spawn } from 'node:child_process';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { examplePayload } from '../support/github-app-harness.ts';
import { FIXLOOP_BIN, runCli } from '../support/run-cli.ts';

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
    const result = await runCli(['serve'], { cwd: dir, env: { APP_ID: '1', PRIVATE_KEY_PATH: join(dir, 'missing.pem'), WEBHOOK_SECRET: 's' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PRIVATE_KEY_PATH: no such file');
  });

  it('stops with a message naming FIXLOOP_DATA_DIR when the run store is corrupt, not a crash loop', async () => {
    const data = join(dir, 'data');
    await mkdir(data);
    await writeFile(join(data, 'fixloop.db'), 'not a database, just some text'.repeat(40));
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const result = await runCli(['serve'], { cwd: dir, env: { APP_ID: '1', PRIVATE_KEY: key, WEBHOOK_SECRET: 's', PORT: String(await freePort()), FIXLOOP_DATA_DIR: data } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('FIXLOOP_DATA_DIR: the run store');
    expect(result.stderr).toContain('Move it aside');
    expect(result.stderr).not.toMatch(/\.ts:\d+/);
  });

  it('serves signed webhooks and rejects unsigned ones', async () => {
    const port = await freePort();
    const secret = 'a-webhook-secret';
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const child = spawn(process.execPath, [FIXLOOP_BIN, 'serve'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', APP_ID: '1', PRIVATE_KEY: key, WEBHOOK_SECRET: secret, PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'json', FIXLOOP_DATA_DIR: join(dir, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      for (let i = 0; i < 200 && !/Listening on/.test(output); i++) await new Promise((r) => setTimeout(r, 50));
      expect(output).toContain('Listening on');
      // A comment that is not a command: handled without a single call to GitHub.
      const payload = examplePayload('issue_comment', 'created');
      payload.comment.body = 'Looks good to me.';
      const body = JSON.stringify(payload);
      const post = (signature: string) =>
        fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-github-event': 'issue_comment', 'x-github-delivery': 'd-1', 'x-hub-signature-256': signature },
          body,
        });
      const signed = await post(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
      expect(signed.status).toBe(200);
      const forged = await post(`sha256=${createHmac('sha256', 'wrong').update(body).digest('hex')}`);
      expect(forged.status).toBeGreaterThanOrEqual(400);
      expect(output).not.toContain(key.split('\n')[1] ?? 'unreachable');
      expect(output).not.toContain(secret);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
