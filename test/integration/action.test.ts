// `fixloop action` end to end, as a runner runs it: a child process with the runner's environment
// (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_API_URL on a GitHub Enterprise Server style path, ...),
// an event file built from GitHub's example payloads, the GitHub stand-in for the API (every request
// checked against GitHub's OpenAPI description), and a real git remote over HTTP that demands the
// token as a header. The real triggers, fix loop, repair engine and publication run inside.
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUGGY_SHOP, FIXED_DISCOUNT } from '../fixtures/shop.ts';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';
import { createBareRepoFrom, startGitHttpServer, type GitHttpServer } from '../support/git-http-server.ts';
import { examplePayload, type Payload } from '../support/github-app-harness.ts';
import { checkAgainstOpenApi } from '../support/openapi-check.ts';
import { runCli, type CliRun } from '../support/run-cli.ts';

const run = promisify(execFile);
const OWNER = 'Codertocat';
const REPO = 'Hello-World';
const CONFIG = 'test:\n  command: node --test\n';

let dirs: string[];
let token: string;
let github: FakeGitHub;
let server: GitHttpServer;
let runnerTemp: string;

/** A test in the repository itself that fails if the token reached the repository's code (only its hash is written down). */
function leakCheck(secret: string): string {
  const hash = createHash('sha256').update(secret).digest('hex');
  return "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { createHash } from 'node:crypto';\n" +
    `const HASH = '${hash}';\n` +
    "const sha = (v) => createHash('sha256').update(v).digest('hex');\n" +
    "test('the token is not in the environment', () => assert.ok(!Object.values(process.env).some((v) => v && sha(v) === HASH)));\n";
}

beforeEach(async () => {
  dirs = [];
  token = `ghs_${randomBytes(18).toString('hex')}`;
  server = await startGitHttpServer({ requiredAuthorization: `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}` });
  runnerTemp = await mkdtemp(join(tmpdir(), 'fixloop-runner-'));
  dirs.push(runnerTemp);
});

afterEach(async () => {
  await github.close();
  await server.close();
  await removeAll(dirs);
});

/** The remote `hello-world.git` with the buggy shop, and a runner's checkout of it in GITHUB_WORKSPACE. */
async function publishShop(): Promise<{ cloneUrl: string; workspace: string }> {
  const work = await makeRepo({ ...BUGGY_SHOP, 'test/no-token.test.js': leakCheck(token) });
  dirs.push(work);
  const cloneUrl = await createBareRepoFrom(server, 'hello-world', work);
  const workspace = join(runnerTemp, '..', `${runnerTemp.split('/').pop()}-workspace`);
  dirs.push(workspace);
  git(tmpdir(), 'clone', '-q', join(server.root, 'hello-world.git'), workspace);
  return { cloneUrl, workspace };
}

function forRepository(payload: Payload, cloneUrl: string): Payload {
  // Runner event files name no installation: that is a webhook to an App.
  delete payload.installation;
  payload.repository.clone_url = cloneUrl;
  payload.repository.default_branch = 'main';
  return payload;
}

async function runAction(eventName: string, payload: Payload, workspace: string): Promise<CliRun & { outputs: Record<string, string>; summary: string }> {
  const eventPath = join(runnerTemp, 'event.json');
  const outputPath = join(runnerTemp, 'output.txt');
  const summaryPath = join(runnerTemp, 'summary.md');
  await writeFile(eventPath, JSON.stringify(payload));
  await Promise.all([writeFile(outputPath, ''), writeFile(summaryPath, '')]);
  const result = await runCli(['action'], {
    cwd: workspace,
    env: {
      GITHUB_EVENT_NAME: eventName,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
      GITHUB_API_URL: `http://${github.host}/api/v3`,
      GITHUB_SERVER_URL: `http://${github.host}`,
      GITHUB_WORKSPACE: workspace,
      GITHUB_RUN_ID: '9001',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_OUTPUT: outputPath,
      GITHUB_STEP_SUMMARY: summaryPath,
      RUNNER_TEMP: runnerTemp,
      'INPUT_GITHUB-TOKEN': token,
      GITHUB_TOKEN: '',
      FIXLOOP_TOKEN_KIND: 'workflow',
      FIXLOOP_SANDBOX: 'process',
    },
  });
  return { ...result, outputs: parseOutputs(await readFile(outputPath, 'utf8')), summary: await readFile(summaryPath, 'utf8') };
}

/** GITHUB_OUTPUT's `name<<DELIMITER` entries, as the runner reads them. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([\w-]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!m) continue;
    const end = lines.indexOf(m[2] ?? '', i + 1);
    outputs[m[1] ?? ''] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return outputs;
}

function openApiProblems(): string[] {
  return github.requests.flatMap((r) => checkAgainstOpenApi({ method: r.method, path: r.path, body: r.body ?? undefined }).map((p) => `${r.method} ${r.path}: ${p}`));
}

const bodies = (route: RegExp) => github.requests.filter((r) => route.test(`${r.method} ${r.path.split('?')[0]}`)).map((r) => r.body as Payload);

describe('fixloop action, as a GitHub Actions runner runs it', () => {
  it("turns a writer's label into a pushed branch whose tests pass and a pull request whose body is the report; the token stays a header", async () => {
    github = await startFakeGitHub({ token, config: CONFIG });
    const { cloneUrl, workspace } = await publishShop();
    const payload = forRepository(examplePayload('issues', 'labeled'), cloneUrl);
    payload.label.name = 'fixloop';
    payload.issue.title = 'No discount at exactly 100';
    payload.issue.body = 'An order of 100 gets no discount, but the terms say it should.';

    const result = await runAction('issues', payload, workspace);

    expect(result.stderr).not.toMatch(/system error|stack/i);
    expect(result.code).toBe(0);
    expect(openApiProblems()).toEqual([]);
    const pr = bodies(/^POST \/repos\/Codertocat\/Hello-World\/pulls$/)[0] ?? {};
    expect(pr.base).toBe('main');
    expect(pr.head).toMatch(/^fixloop\/1-[0-9a-f]{6}$/);
    expect(pr.draft).toBe(false);
    expect(pr.body).toContain('Fixes #1');
    expect(pr.body).toContain('✅ Verified fix');
    expect(pr.body).toMatch(/Fail → pass \(1\): `.*the discount starts at 100`/);
    expect(pr.body).toContain("workflow's `GITHUB_TOKEN`");
    // The live status comment: created queued, then updated in place to the result.
    const statuses = [...bodies(/^POST \/repos\/.*\/issues\/1\/comments$/), ...bodies(/^PATCH \/repos\/.*\/issues\/comments\/\d+$/)].map((b) => String(b.body));
    expect(statuses[0]).toContain('queued for @Codertocat');
    expect(statuses.at(-1)).toContain('opened #77');
    expect(bodies(/^PATCH \/repos\/.*\/check-runs\/\d+$/).at(-1)).toMatchObject({ conclusion: 'success' });

    // The branch, checked out fresh: the fix is there and every test passes, the leak check included.
    const check = await makeRepo({}, { git: false });
    dirs.push(check);
    git(check, 'clone', '-q', '-b', String(pr.head), join(server.root, 'hello-world.git'), 'repo');
    expect(await readFile(join(check, 'repo/src/discount.js'), 'utf8')).toBe(FIXED_DISCOUNT);
    const tests = await run(process.execPath, ['--test'], { cwd: join(check, 'repo') });
    expect(tests.stdout).toMatch(/pass 4/);
    expect(tests.stdout).toMatch(/fail 0/);

    // Outputs and the step summary.
    expect(result.outputs.status).toBe('tests_green');
    expect(result.outputs['pull-request-url']).toBe('http://example.invalid/pull/77');
    expect(result.outputs['run-id']).toMatch(/^[a-z0-9-]+$/);
    expect(result.summary).toContain(`fixloop run \`${result.outputs['run-id']}\``);
    expect(result.summary).toContain('✅ Verified fix');
    expect(result.summary).toContain("Token: the workflow's `GITHUB_TOKEN`");
    expect(result.stdout).toContain('::warning title=fixloop sandbox::');

    // The runner's checkout is left as it was: fixloop works on its own clone.
    expect(git(workspace, 'status', '--porcelain')).toBe('');
    expect(git(workspace, 'branch', '--list').trim()).toBe('* main');

    // The token: sent to git as a header (the remote demanded it), and nowhere else.
    expect(server.authorizations.length).toBeGreaterThan(0);
    const encoded = Buffer.from(`x-access-token:${token}`).toString('base64');
    const pushed = git(join(server.root, 'hello-world.git'), 'log', '--all', '-p', '--format=%H %an %ae %s %b');
    const written = await readAll(runnerTemp);
    for (const text of [result.stdout, result.stderr, ...server.urls, JSON.stringify(github.requests), pushed, written, await readFile(join(server.root, 'hello-world.git', 'config'), 'utf8')]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(encoded);
    }
    expect(written.length).toBeGreaterThan(0);
  }, 180_000);

  it("answers a reader's /fix with a refusal, and clones nothing", async () => {
    github = await startFakeGitHub({ token, config: CONFIG, permissions: { reader: 'read' } });
    const { cloneUrl, workspace } = await publishShop();
    const payload = forRepository(examplePayload('issue_comment', 'created', (p: Payload) => !p.issue.pull_request), cloneUrl);
    payload.comment.body = '/fix';
    payload.sender.login = 'reader';
    payload.comment.user.login = 'reader';

    const result = await runAction('issue_comment', payload, workspace);

    expect(result.code).toBe(0);
    expect(openApiProblems()).toEqual([]);
    const replies = bodies(/^POST \/repos\/.*\/issues\/1\/comments$/).map((b) => String(b.body));
    expect(replies).toEqual([expect.stringContaining('@reader fixloop only runs for people with **write** permission')]);
    expect(server.urls).toEqual([]);
    expect(github.requests.some((r) => r.method !== 'GET' && !r.path.endsWith('/issues/1/comments'))).toBe(false);
    expect(result.outputs).toEqual({ status: 'no-run', 'pull-request-url': '', 'run-id': '' });
    expect(result.summary).toContain('@reader fixloop only runs for people with');
  }, 60_000);

  it("does nothing at all for a bot's label", async () => {
    github = await startFakeGitHub({ token, config: CONFIG });
    const { cloneUrl, workspace } = await publishShop();
    const payload = forRepository(examplePayload('issues', 'labeled'), cloneUrl);
    payload.label.name = 'fixloop';
    payload.sender.login = 'renovate[bot]';
    payload.sender.type = 'Bot';

    const result = await runAction('issues', payload, workspace);

    expect(result.code).toBe(0);
    expect(github.requests).toEqual([]);
    expect(server.urls).toEqual([]);
    expect(result.outputs.status).toBe('ignored');
    expect(result.summary).toContain('does not concern fixloop');
  }, 60_000);

  it('names a missing runner variable instead of failing with a stack trace', async () => {
    github = await startFakeGitHub({ token, config: CONFIG });
    const result = await runCli(['action'], { cwd: runnerTemp, env: { GITHUB_EVENT_PATH: '', GITHUB_EVENT_NAME: 'issues', RUNNER_TEMP: runnerTemp } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('GITHUB_EVENT_PATH is not set');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

/** Every file under `dir`, concatenated (the clones' git objects are compressed: fixloop's own files are what can leak). */
async function readAll(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), 'utf8').catch(() => '')));
  return texts.join('\n');
}
