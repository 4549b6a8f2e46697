// The GitHub App end to end: a real Probot receiving real payloads, a real git remote over HTTP on
// loopback (git's own http-backend, which demands the installation token as a header), the real fix
// loop and repair engine, and nock standing in for api.github.com with every request checked against
// GitHub's OpenAPI description.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppOptions } from '../../src/app.ts';
import { createMemoryQueue } from '../../src/jobs/memory-queue.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';
import { examplePayload, type Payload, mockConfig, mockInstallationTokens, startHarness, type Harness } from '../support/github-app-harness.ts';
import { createBareRepoFrom, startGitHttpServer, type GitHttpServer } from '../support/git-http-server.ts';

const run = promisify(execFile);
const OWNER = 'Codertocat';
const REPO = 'Hello-World';

const BUGGY = {
  'package.json': JSON.stringify({ name: 'shop', type: 'module', scripts: { test: 'node --test' } }),
  'src/discount.js': 'export function discountRate(total) {\n  if (total > 100) return 0.1;\n  return 0;\n}\n',
  'test/discount.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { discountRate } from '../src/discount.js';\n\n" +
    "test('no discount below 100', () => assert.equal(discountRate(99), 0));\n" +
    "test('the discount starts at 100', () => assert.equal(discountRate(100), 0.1));\n" +
    "test('the discount applies above 100', () => assert.equal(discountRate(250), 0.1));\n",
};

let dirs: string[];
let h: Harness;
let server: GitHttpServer;
let options: AppOptions;
let artifacts: string;

beforeEach(async () => {
  dirs = [];
  const tmp = await mkdtemp(join(tmpdir(), 'fixloop-e2e-'));
  dirs.push(tmp);
  artifacts = join(tmp, 'runs');
  options = {
    queue: createMemoryQueue({ concurrency: 1 }),
    sandbox: createProcessSandbox(),
    artifactsRoot: artifacts,
    tmpRoot: tmp,
    installationToken: async (app, installationId, repositoryId) => (await import('../../src/github/app-token.ts')).installationTokenFor(app, installationId, repositoryId),
  };
  h = startHarness(options);
  server = await startGitHttpServer({ requiredAuthorization: `Basic ${Buffer.from(`x-access-token:${h.token}`).toString('base64')}` });
});

afterEach(async () => {
  await server.close();
  await removeAll(dirs);
});

async function publish(files: Record<string, string>): Promise<string> {
  const work = await makeRepo(files);
  dirs.push(work);
  return createBareRepoFrom(server, 'hello-world', work);
}

function labeledIssue(cloneUrl: string) {
  const payload = examplePayload('issues', 'labeled');
  payload.label.name = 'fixloop';
  payload.repository.clone_url = cloneUrl;
  payload.repository.default_branch = 'main';
  payload.issue.title = 'No discount at exactly 100';
  payload.issue.body = 'An order of 100 gets no discount, but the terms say it should.';
  return payload;
}

/** The status comment: looked up by its marker once, created, then updated in place. */
function mockStatusComment(issue: number, id: number): () => string[] {
  h.scope.get(`/repos/${OWNER}/${REPO}/issues/${issue}/comments`).query({ per_page: 100 }).reply(200, []);
  h.scope.post(`/repos/${OWNER}/${REPO}/issues/${issue}/comments`).reply(201, { id });
  h.scope.patch(`/repos/${OWNER}/${REPO}/issues/comments/${id}`).reply(200, { id }).persist();
  return () => bodiesOf(new RegExp(`^(POST /repos/${OWNER}/${REPO}/issues/${issue}/comments|PATCH /repos/${OWNER}/${REPO}/issues/comments/${id})$`)).map((b) => String(b.body));
}

function mockCheckRun(id: number): () => Array<Payload> {
  h.scope.post(`/repos/${OWNER}/${REPO}/check-runs`).reply(201, { id });
  h.scope.patch(`/repos/${OWNER}/${REPO}/check-runs/${id}`).reply(200, { id });
  return () => bodiesOf(new RegExp(`^(POST|PATCH) /repos/${OWNER}/${REPO}/check-runs`));
}

/** The JSON bodies of the requests fixloop sent, in order, as recorded by the OpenAPI watcher. */
function bodiesOf(route: RegExp): Array<Payload> {
  return h.requests.filter((r) => route.test(`${r.method} ${r.path.split('?')[0]}`)).map((r) => r.body as Payload);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** The token must appear nowhere fixloop writes: artifacts, logs, GitHub bodies, the remote's config, URLs. */
async function expectTokenNowhere(bodies: string[]): Promise<void> {
  const seen = [...h.logs, ...bodies, ...server.urls, JSON.stringify(h.requests.filter((r) => !r.path.includes('access_tokens')))];
  for (const file of [...(await filesUnder(artifacts)), join(server.root, 'hello-world.git', 'config')]) seen.push(await readFile(file, 'utf8'));
  const encoded = Buffer.from(`x-access-token:${h.token}`).toString('base64');
  for (const text of seen) {
    expect(text).not.toContain(h.token);
    expect(text).not.toContain(encoded);
  }
}

describe('the GitHub App, end to end', () => {
  it('turns a labeled issue into a pushed branch whose tests pass and a pull request whose body holds the report', async () => {
    const cloneUrl = await publish(BUGGY);
    mockInstallationTokens(h, 2);
    mockConfig(h, OWNER, REPO, 'test:\n  command: node --test\npr:\n  labels: [automated]\n');
    h.scope.get(`/repos/${OWNER}/${REPO}/collaborators/Codertocat/permission`).reply(200, { permission: 'admin', role_name: 'admin', user: { login: 'Codertocat' } });
    const statusOf = mockStatusComment(1, 700);
    const checksOf = mockCheckRun(55);
    h.scope.post(`/repos/${OWNER}/${REPO}/pulls`).reply(201, { number: 2, html_url: 'https://github.com/Codertocat/Hello-World/pull/2' });
    h.scope.post(`/repos/${OWNER}/${REPO}/issues/2/labels`, { labels: ['automated'] }).reply(200, []);

    await h.receive('issues', labeledIssue(cloneUrl));
    await options.queue.drain();

    expect(h.finish()).toEqual([]);
    const status = statusOf();
    const checks = checksOf();
    const pr = bodiesOf(/^POST \/repos\/.*\/pulls$/)[0] ?? {};
    // The pull request: from fixloop's branch into the default branch, fully verified, with the report.
    expect(pr.head).toMatch(/^fixloop\/1-[0-9a-f]{6}$/);
    expect(pr.base).toBe('main');
    expect(pr.draft).toBe(false);
    expect(pr.body).toContain('Fixes #1');
    expect(pr.body).toContain('✅ Verified fix');
    expect(pr.body).toMatch(/Fail → pass \(1\): `.*the discount starts at 100`/);
    expect(pr.body).toContain('- Pass → fail: none');
    expect(pr.body).toMatch(/<!-- fixloop:pr run=[a-z0-9-]+ for=1 -->/);
    // The status comment: queued first, updated in place, and the result last with the link.
    expect(status[0]).toContain('queued for @Codertocat');
    expect(status.at(-1)).toContain('opened #2');
    expect(status.every((b) => b.startsWith('<!-- fixloop:status run='))).toBe(true);
    // The check run on the commit worked on: in progress, then success with the report.
    const head = git(join(server.root, 'hello-world.git'), 'rev-parse', 'refs/heads/main').trim();
    expect(checks[0]).toMatchObject({ name: 'fixloop', head_sha: head, status: 'in_progress' });
    expect(checks[1]).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(checks[1]?.output.summary).toContain('Verified fix');

    // The pushed branch, checked out fresh: the fix is there and the tests pass.
    const branch = String(pr.head);
    const check = await mkdtemp(join(tmpdir(), 'fixloop-e2e-check-'));
    dirs.push(check);
    git(check, 'clone', '-q', '-b', branch, join(server.root, 'hello-world.git'), 'repo');
    expect(await readFile(join(check, 'repo/src/discount.js'), 'utf8')).toContain('total >= 100');
    const tests = await run(process.execPath, ['--test'], { cwd: join(check, 'repo') });
    expect(tests.stdout).toMatch(/pass 3/);
    expect(tests.stdout).toMatch(/fail 0/);
    expect(git(join(check, 'repo'), 'log', '-1', '--format=%s')).toContain('fixloop: No discount at exactly 100');

    // The token travelled only as git's Authorization header.
    expect(server.authorizations.length).toBeGreaterThan(0);
    await expectTokenNowhere([...status, String(pr.body)]);
  });

  it('says there is nothing to fix when the tests already pass, and opens nothing', async () => {
    const green = { ...BUGGY, 'src/discount.js': 'export function discountRate(total) {\n  if (total >= 100) return 0.1;\n  return 0;\n}\n' };
    const cloneUrl = await publish(green);
    mockInstallationTokens(h, 1);
    mockConfig(h, OWNER, REPO, 'test:\n  command: node --test\n');
    h.scope.get(`/repos/${OWNER}/${REPO}/collaborators/Codertocat/permission`).reply(200, { permission: 'write', role_name: 'write', user: { login: 'Codertocat' } });
    const statusOf = mockStatusComment(1, 701);
    const checksOf = mockCheckRun(56);

    await h.receive('issues', labeledIssue(cloneUrl));
    await options.queue.drain();
    expect(h.finish()).toEqual([]);
    const status = statusOf();
    const checks = checksOf();
    expect(status.at(-1)).toContain('nothing to fix');
    expect(status.at(-1)).toContain('a failing test');
    expect(checks[1]).toMatchObject({ conclusion: 'neutral' });
    expect(git(join(server.root, 'hello-world.git'), 'branch', '--list', 'fixloop/*').trim()).toBe('');
    await expectTokenNowhere(status);
  });

  it('escalates to a human with the failing tests, the reason and a label when the engines find nothing', async () => {
    const cloneUrl = await publish(BUGGY);
    mockInstallationTokens(h, 1);
    // An engine that changes nothing: the loop must stop on no progress and say so.
    mockConfig(h, OWNER, REPO, 'test:\n  command: node --test\nengines: [script]\nscript:\n  command: "true"\nloop:\n  maxAttempts: 3\n');
    h.scope.get(`/repos/${OWNER}/${REPO}/collaborators/Codertocat/permission`).reply(200, { permission: 'write', role_name: 'write', user: { login: 'Codertocat' } });
    const payload = examplePayload('issue_comment', 'created', (p: Payload) => !p.issue.pull_request);
    payload.repository.clone_url = cloneUrl;
    payload.repository.default_branch = 'main';
    payload.comment.body = '/fix amounts of exactly 100 must get the discount';
    h.scope.post(`/repos/${OWNER}/${REPO}/issues/comments/${payload.comment.id}/reactions`, { content: 'eyes' }).reply(201, { id: 1, content: 'eyes' });
    const statusOf = mockStatusComment(1, 702);
    const checksOf = mockCheckRun(57);
    h.scope.post(`/repos/${OWNER}/${REPO}/issues/1/labels`, { labels: ['fixloop:needs-human'] }).reply(200, []);

    await h.receive('issue_comment', payload);
    await options.queue.drain();

    expect(h.finish()).toEqual([]);
    const status = statusOf();
    const checks = checksOf();
    expect(status[0]).toContain('> amounts of exactly 100 must get the discount');
    const final = status.at(-1) ?? '';
    expect(final).toContain('needs a human');
    expect(final).toContain('the discount starts at 100');
    expect(final).toMatch(/no progress|failed attempts|gave up/);
    expect(final).toContain('/fix retry');
    expect(checks[1]).toMatchObject({ conclusion: 'failure' });
    await expectTokenNowhere(status);
  });
});
