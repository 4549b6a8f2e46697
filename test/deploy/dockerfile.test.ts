// The container image, as docs/github-app.md#run-it-in-a-container says to run it. Everywhere: what
// the Dockerfile copies (the code, never .env or a key), which user runs it, who owns the data folder.
// Where a docker daemon answers: the image built and started with an .env made for a checkout.
import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments left out. */
async function instructions(): Promise<Instruction[]> {
  const text = (await readFile(new URL('Dockerfile', ROOT), 'utf8')).replace(/\\\n/g, ' ');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

describe('the Dockerfile', () => {
  it('copies the code and the manifest, and nothing else: no .env, no key, no tests', async () => {
    const copied = (await instructions())
      .filter((i) => i.keyword === 'COPY')
      .flatMap((i) => {
        const parts = i.args.split(/\s+/).filter((part) => !part.startsWith('--'));
        return parts.slice(0, -1);
      });
    expect(new Set(copied)).toEqual(new Set(['package.json', 'package-lock.json', 'bin', 'src', 'app.yml']));
    const ignored = (await readFile(new URL('.dockerignore', ROOT), 'utf8')).split('\n');
    // The build context never carries the operator's secrets, even to a COPY added later.
    expect(ignored).toEqual(expect.arrayContaining(['.env', '*.pem', 'node_modules', 'test']));
  });

  it('runs as a user of its own, not root, who owns the data folder; relative paths resolve there', async () => {
    const all = await instructions();
    const userAt = all.findLastIndex((i) => i.keyword === 'USER');
    const user = all[userAt]?.args ?? '';
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(user).not.toBe('');
    const before = all
      .slice(0, userAt)
      .filter((i) => i.keyword === 'RUN')
      .map((i) => i.args);
    expect(before.some((run) => new RegExp(`useradd\\b.*--uid [1-9]\\d*.* ${user}\\b`).test(run))).toBe(true);
    expect(before.some((run) => new RegExp(`chown ${user}(:${user})? /data\\b`).test(run))).toBe(true);
    const env = all
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/\bFIXLOOP_DATA_DIR=\/data\b/);
    expect(all.some((i) => i.keyword === 'VOLUME' && i.args === '/data')).toBe(true);
    // The process starts in the data folder: a `FIXLOOP_DATA_DIR=./.fixloop` from an .env lands in it.
    expect(all.filter((i) => i.keyword === 'WORKDIR').at(-1)?.args).toBe('/data');
    expect(all.find((i) => i.keyword === 'CMD')?.args).toBe('["node", "/app/bin/fixloop.js", "serve"]');
  });
});

/** Whether a docker daemon answers here (`docker info` succeeds). */
function dockerAvailable(): boolean {
  return spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
}

const docker = (...args: string[]) =>
  execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

describe('the image', () => {
  // Only where a docker daemon answers and the operator asks for it (FIXLOOP_TEST_DOCKER=1): the build
  // pulls node:24-slim and installs packages from the registries, and no test of the ordinary suite
  // may touch the network. The static checks above hold everywhere.
  it.runIf(process.env.FIXLOOP_TEST_DOCKER === '1' && dockerAvailable())(
    'starts with an .env made for a checkout and a mounted key, creates its store in /data, and answers /ping',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'fixloop-docker-'));
      const tag = `fixloop-test:${process.pid}`;
      const name = `fixloop-test-${process.pid}`;
      try {
        const key = generateKeyPairSync('rsa', { modulusLength: 2048 })
          .privateKey.export({ type: 'pkcs1', format: 'pem' })
          .toString();
        await writeFile(join(dir, 'key.pem'), key);
        // The image's user (uid 10001) reads it; a real key would be chown'd to it instead (docs).
        await chmod(join(dir, 'key.pem'), 0o644);
        await writeFile(
          join(dir, '.env'),
          'APP_ID=1\nPRIVATE_KEY_PATH=./fixloop.private-key.pem\nWEBHOOK_SECRET=s\nFIXLOOP_DATA_DIR=./.fixloop\nFIXLOOP_SANDBOX=process\n',
        );
        docker('build', '-t', tag, new URL('.', ROOT).pathname);
        docker(
          'run',
          '-d',
          '--name',
          name,
          '--env-file',
          join(dir, '.env'),
          '-e',
          'PRIVATE_KEY_PATH=/run/secrets/fixloop.pem',
          '-v',
          `${join(dir, 'key.pem')}:/run/secrets/fixloop.pem:ro`,
          '-p',
          '127.0.0.1::3000',
          tag,
        );
        const port = docker('port', name, '3000/tcp').split('\n')[0]?.split(':').at(-1) ?? '';
        let ping = '';
        for (let i = 0; i < 120 && ping !== 'PONG'; i++) {
          ping = await fetch(`http://127.0.0.1:${port}/ping`)
            .then((r) => r.text())
            .catch(() => '');
          if (ping !== 'PONG') await new Promise((r) => setTimeout(r, 500));
        }
        expect(ping, docker('logs', name)).toBe('PONG');
        expect(docker('exec', name, 'stat', '-c', '%U', '/data', '/data/.fixloop/fixloop.db')).toBe('fixloop\nfixloop');
        expect(docker('exec', name, 'id', '-u')).toBe('10001');
        expect(docker('exec', name, 'ls', '-a', '/app')).not.toMatch(/^\.env$|^test$/m);
      } finally {
        spawnSync('docker', ['rm', '-f', name], { stdio: 'ignore' });
        spawnSync('docker', ['rmi', '-f', tag], { stdio: 'ignore' });
        await rm(dir, { recursive: true, force: true });
      }
    },
    900_000,
  );
});
