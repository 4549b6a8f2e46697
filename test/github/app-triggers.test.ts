// Who may start a run, and what everyone else gets: the app driven with real payloads, GitHub mocked
// with nock and every request checked against GitHub's OpenAPI description.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppOptions } from '../../src/app.ts';
import { createDurableQueue } from '../../src/jobs/durable-queue.ts';
import { openSqliteStore } from '../../src/jobs/sqlite-store.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import {
  examplePayload,
  type Payload,
  mockConfig,
  mockInstallationTokens,
  startHarness,
  type Harness,
} from '../support/github-app-harness.ts';

const OWNER = 'Codertocat';
const REPO = 'Hello-World';
const CONFIG = 'test:\n  command: npm test\n';

let dir: string;
let options: AppOptions;
let h: Harness;
let started: string[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fixloop-app-'));
  started = [];
  const store = await openSqliteStore(null);
  const queue = createDurableQueue({ store, concurrency: 1 });
  options = {
    inbox: createDurableQueue({ store, concurrency: 1, lane: 'event', pollMs: 20 }),
    // Nothing may be stored in these tests: a stored job is a started run.
    queue: { ...queue, enqueue: async (data) => (started.push(data.key), { accepted: true }) },
    runDeps: { sandbox: createProcessSandbox(), artifactsRoot: join(dir, 'runs'), tmpRoot: dir },
    installationToken: () => Promise.reject(new Error('no run may start in these tests')),
  };
  h = startHarness(options);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function comment(body: string, sender: { login: string; type: 'User' | 'Bot' } = { login: 'octocat', type: 'User' }) {
  const payload = examplePayload('issue_comment', 'created', (p: Payload) => !p.issue.pull_request);
  payload.comment.body = body;
  payload.comment.user = { ...payload.comment.user, ...sender };
  payload.sender = { ...payload.sender, ...sender };
  return payload;
}

const permission = (user: string, role: string) =>
  h.scope
    .get(`/repos/${OWNER}/${REPO}/collaborators/${user}/permission`)
    .reply(200, { permission: role === 'maintain' ? 'write' : role, role_name: role, user: { login: user } });

describe('the GitHub App refuses', () => {
  it("a non-collaborator's /fix with a short reply, and runs nothing", async () => {
    mockInstallationTokens(h, 0);
    mockConfig(h, OWNER, REPO, CONFIG);
    permission('stranger', 'read');
    let reply = '';
    h.scope
      .post(`/repos/${OWNER}/${REPO}/issues/1/comments`, (b: { body: string }) => ((reply = b.body), true))
      .reply(201, { id: 1 });
    await h.receive('issue_comment', comment('/fix the total must include tax', { login: 'stranger', type: 'User' }));
    expect(h.finish()).toEqual([]);
    expect(reply).toContain('@stranger');
    expect(reply).toContain('**write** permission');
    expect(started).toEqual([]);
  });

  it("a bot's comment, fixloop's own included, without a single request", async () => {
    await h.receive('issue_comment', comment('/fix', { login: 'fixloop[bot]', type: 'Bot' }));
    expect(h.finish()).toEqual([]);
    expect(h.requests).toEqual([]);
    expect(started).toEqual([]);
  });

  it('comments that are not commands, and edited comments, without a single request', async () => {
    await h.receive('issue_comment', comment('Thanks! I will /fix this later.'));
    const edited = examplePayload('issue_comment', 'edited');
    edited.comment.body = '/fix';
    await h.receive('issue_comment', edited);
    expect(h.finish()).toEqual([]);
    expect(h.requests).toEqual([]);
  });

  it('a bad .github/fixloop.yml with one reply that names the key and the reason, and no run', async () => {
    mockInstallationTokens(h, 0);
    mockConfig(h, OWNER, REPO, 'test:\n  command: npm test\nloop:\n  maxAttempts: many\n');
    let reply = '';
    h.scope
      .post(`/repos/${OWNER}/${REPO}/issues/1/comments`, (b: { body: string }) => ((reply = b.body), true))
      .reply(201, { id: 2 });
    await h.receive('issue_comment', comment('/fix'));
    expect(h.finish()).toEqual([]);
    expect(reply).toContain('`loop.maxAttempts`');
    expect(reply).toMatch(/expected number/i);
    expect(started).toEqual([]);
  });

  it('a .github/fixloop.yml that is not YAML, with a reply that says so', async () => {
    mockInstallationTokens(h, 0);
    mockConfig(h, OWNER, REPO, 'test: [unclosed\n');
    let reply = '';
    h.scope
      .post(`/repos/${OWNER}/${REPO}/issues/1/comments`, (b: { body: string }) => ((reply = b.body), true))
      .reply(201, { id: 3 });
    await h.receive('issue_comment', comment('/fix'));
    expect(h.finish()).toEqual([]);
    expect(reply).toContain('not valid YAML');
  });

  it('a repository without a test command, naming `test.command`', async () => {
    mockInstallationTokens(h, 0);
    mockConfig(h, OWNER, REPO, null);
    permission('octocat', 'admin');
    h.scope
      .post(`/repos/${OWNER}/${REPO}/issues/comments/${comment('').comment.id}/reactions`)
      .reply(201, { id: 1, content: 'eyes' });
    let reply = '';
    h.scope
      .post(`/repos/${OWNER}/${REPO}/issues/1/comments`, (b: { body: string }) => ((reply = b.body), true))
      .reply(201, { id: 4 });
    await h.receive('issue_comment', comment('/fix'));
    expect(h.finish()).toEqual([]);
    expect(reply).toContain('`test.command`');
    expect(started).toEqual([]);
  });
});

describe('the GitHub App answers', () => {
  it('/fix help, and an unknown sub-command with the help text', async () => {
    mockInstallationTokens(h, 0);
    mockConfig(h, OWNER, REPO, CONFIG);
    mockConfig(h, OWNER, REPO, CONFIG);
    const replies: string[] = [];
    h.scope
      .post(`/repos/${OWNER}/${REPO}/issues/1/comments`, (b: { body: string }) => (replies.push(b.body), true))
      .times(2)
      .reply(201, { id: 5 });
    await h.receive('issue_comment', comment('/fix help'));
    await h.receive('issue_comment', comment('/fix stauts'));
    expect(h.finish()).toEqual([]);
    expect(replies[0]).toContain('/fix cancel');
    expect(replies[1]).toContain('`/fix stauts` is not a command');
    expect(started).toEqual([]);
  });

  it('/fix status when nothing runs, from the queue', async () => {
    mockInstallationTokens(h, 0);
    mockConfig(h, OWNER, REPO, CONFIG);
    let reply = '';
    h.scope
      .post(`/repos/${OWNER}/${REPO}/issues/1/comments`, (b: { body: string }) => ((reply = b.body), true))
      .reply(201, { id: 6 });
    await h.receive('issue_comment', comment('/fix status'));

    expect(h.finish()).toEqual([]);
    expect(reply).toContain('No **fixloop** run is active here');
  });

  it('a label other than the configured one with silence', async () => {
    mockInstallationTokens(h, 0);
    mockConfig(h, OWNER, REPO, CONFIG);
    const payload = examplePayload('issues', 'labeled');
    await h.receive('issues', payload);
    expect(h.finish()).toEqual([]);
    expect(started).toEqual([]);
  });

  it('a failing check suite with silence when failing checks are not switched on (the default)', async () => {
    mockInstallationTokens(h, 0);
    mockConfig(h, OWNER, REPO, CONFIG);
    const payload = examplePayload('check_suite', 'completed', (p: Payload) => p.check_suite.pull_requests.length > 0);
    payload.check_suite.conclusion = 'failure';
    payload.check_suite.app.id = 999;
    await h.receive('check_suite', payload);
    expect(h.finish()).toEqual([]);
    expect(started).toEqual([]);
  });
});
