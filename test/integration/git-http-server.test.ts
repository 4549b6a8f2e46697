// The loopback git remote itself: real `git clone`/`git push` over smart HTTP against `git http-backend`.
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';
import { createBareRepoFrom, startGitHttpServer, type GitHttpServer } from '../support/git-http-server.ts';

const execFileAsync = promisify(execFile);

const TOKEN = 'ghs_testtoken123';
const AUTHORIZATION = `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`;
const WITH_HEADER = ['-c', `http.extraHeader=Authorization: ${AUTHORIZATION}`];

/**
 * Network git commands must not block: the server answers from this very process, so the synchronous
 * `git` fixture helper would deadlock. Prompts are off so a 401 fails fast instead of waiting for a user.
 */
async function gitOverHttp(cwd: string, ...args: string[]): Promise<{ ok: boolean; stderr: string }> {
  const env = {
    ...process.env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
  };
  try {
    await execFileAsync('git', args, { cwd, env, timeout: 30_000 });
    return { ok: true, stderr: '' };
  } catch (err) {
    return { ok: false, stderr: String((err as { stderr?: unknown }).stderr ?? err) };
  }
}

describe('git http server', () => {
  const dirs: string[] = [];
  let server: GitHttpServer;
  let remote: string;
  let scratch: string;

  beforeAll(async () => {
    server = await startGitHttpServer({ requiredAuthorization: AUTHORIZATION });
    const work = await makeRepo({ 'README.md': '# hello\n' });
    scratch = await mkdtemp(join(tmpdir(), 'fixloop-git-http-test-'));
    dirs.push(work, scratch);
    remote = await createBareRepoFrom(server, 'demo', work);
  });
  afterAll(async () => {
    await server?.close();
    await removeAll(dirs);
  });

  it('publishes the bare repo at repoUrl(name)', () => {
    expect(remote).toBe(`${server.url}/demo.git`);
    expect(remote).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/demo\.git$/);
    expect(git(scratch, '--git-dir', join(server.root, 'demo.git'), 'config', 'http.receivepack').trim()).toBe('true');
  });

  it('clones with the token sent as an Authorization header', async () => {
    const result = await gitOverHttp(scratch, ...WITH_HEADER, 'clone', '-q', remote, 'with-header');
    expect(result).toEqual({ ok: true, stderr: '' });
    expect(git(join(scratch, 'with-header'), 'log', '--format=%s').trim()).toBe('initial');
    expect(server.authorizations.length).toBeGreaterThan(0);
    expect(new Set(server.authorizations)).toEqual(new Set([AUTHORIZATION]));
  });

  it('refuses a clone without the header', async () => {
    const before = server.urls.length;
    const result = await gitOverHttp(scratch, 'clone', '-q', remote, 'without-header');
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(/Authentication failed|could not read Username|401/i);
    expect(server.urls.length).toBeGreaterThan(before); // it did reach the server and was turned away
  });

  it('accepts a push of a new branch with the header', async () => {
    const clone = join(scratch, 'with-header');
    git(clone, 'commit', '-q', '--allow-empty', '-m', 'fix');
    const pushed = git(clone, 'rev-parse', 'HEAD').trim();
    const result = await gitOverHttp(clone, ...WITH_HEADER, 'push', '-q', 'origin', 'HEAD:refs/heads/fixloop/1-abc');
    expect(result).toEqual({ ok: true, stderr: '' });
    const bare = join(server.root, 'demo.git');
    expect(git(scratch, '--git-dir', bare, 'rev-parse', 'refs/heads/fixloop/1-abc').trim()).toBe(pushed);
  });

  it('never saw the token in a URL', () => {
    expect(server.urls.length).toBeGreaterThan(0);
    expect(server.urls.some((u) => u.includes('git-receive-pack'))).toBe(true);
    for (const url of server.urls) {
      expect(url).not.toContain(TOKEN);
      expect(url).not.toContain(AUTHORIZATION.slice('Basic '.length));
      expect(url).not.toContain('x-access-token');
    }
  });
});
