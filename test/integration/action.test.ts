// `fixloop action` end to end, as a runner runs it (test/support/action-harness.ts): a child process
// with the runner's environment, an event file built from GitHub's example payloads, the GitHub
// stand-in for the API (every request checked against GitHub's OpenAPI description), and a real git
// remote over HTTP that demands the token as a header. The real triggers, fix loop, repair engine and
// publication run inside. Issues here; pull requests and failures in action-pull-requests.test.ts.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXED_DISCOUNT } from '../fixtures/shop.ts';
import { forRepository, parseOutputs, readAll, startActionHarness, type ActionHarness } from '../support/action-harness.ts';
import { git } from '../support/git-fixture.ts';
import { examplePayload, type Payload } from '../support/github-app-harness.ts';
import { runCli } from '../support/run-cli.ts';

const run = promisify(execFile);
const CONFIG = 'test:\n  command: node --test\n';

let h: ActionHarness;

beforeEach(async () => {
  h = await startActionHarness();
});

afterEach(async () => {
  // Nothing any test ran reached past loopback.
  expect(h.internet.attempts).toEqual([]);
  await h.close();
});

describe('fixloop action, as a GitHub Actions runner runs it', () => {
  it("turns a writer's label into a pushed branch whose tests pass and a pull request whose body is the report; the token stays a header", async () => {
    const { token, server, runnerTemp } = h;
    // The one action case with the assessment on: its level is the `assessment` output.
    const github = await h.startGitHub({ config: CONFIG, loud: 'assessment' });
    const { cloneUrl, workspace } = await h.publishShop();
    const payload = forRepository(examplePayload('issues', 'labeled'), cloneUrl);
    payload.label.name = 'fixloop';
    payload.issue.title = 'No discount at exactly 100';
    payload.issue.body = 'An order of 100 gets no discount, but the terms say it should.';

    const result = await h.runAction('issues', payload, workspace);

    expect(result.stderr).not.toMatch(/system error|stack/i);
    expect(result.code).toBe(0);
    expect(h.openApiProblems()).toEqual([]);
    const pr = h.bodies(/^POST \/repos\/Codertocat\/Hello-World\/pulls$/)[0] ?? {};
    expect(pr.base).toBe('main');
    expect(pr.head).toMatch(/^fixloop\/1-[0-9a-f]{6}$/);
    expect(pr.draft).toBe(false);
    expect(pr.body).toContain('Fixes #1');
    expect(pr.body).toContain('✅ Verified fix');
    expect(pr.body).toMatch(/Fail → pass \(1\): `.*the discount starts at 100`/);
    expect(pr.body).toContain("workflow's `GITHUB_TOKEN`");
    // The live status comment: created queued, then updated in place to the result.
    const statuses = [
      ...h.bodies(/^POST \/repos\/.*\/issues\/1\/comments$/),
      ...h.bodies(/^PATCH \/repos\/.*\/issues\/comments\/\d+$/),
    ].map((b) => String(b.body));
    expect(statuses[0]).toContain('queued for @Codertocat');
    expect(statuses.at(-1)).toContain('opened #77');
    expect(h.bodies(/^PATCH \/repos\/.*\/check-runs\/\d+$/).at(-1)).toMatchObject({ conclusion: 'success' });

    // The branch, checked out fresh: the fix is there and every test passes, the leak check included.
    const check = await h.tempDir();
    git(check, 'clone', '-q', '-b', String(pr.head), h.bare(), 'repo');
    expect(await readFile(join(check, 'repo/src/discount.js'), 'utf8')).toBe(FIXED_DISCOUNT);
    const tests = await run(process.execPath, ['--test'], { cwd: join(check, 'repo') });
    expect(tests.stdout).toMatch(/pass 4/);
    expect(tests.stdout).toMatch(/fail 0/);

    // Outputs and the step summary.
    expect(result.outputs.status).toBe('tests_green');
    expect(result.outputs.assessment).toBe('verified');
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
    const pushed = git(h.bare(), 'log', '--all', '-p', '--format=%H %an %ae %s %b');
    const written = await readAll(runnerTemp);
    for (const text of [
      result.stdout,
      result.stderr,
      ...server.urls,
      JSON.stringify(github.requests),
      pushed,
      written,
      await readFile(join(h.bare(), 'config'), 'utf8'),
    ]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(encoded);
    }
    expect(written.length).toBeGreaterThan(0);
  }, 180_000);

  it("answers a reader's /fix with a refusal, and clones nothing", async () => {
    const github = await h.startGitHub({ config: CONFIG, permissions: { reader: 'read' } });
    const { cloneUrl, workspace } = await h.publishShop();
    const payload = forRepository(
      examplePayload('issue_comment', 'created', (p: Payload) => !p.issue.pull_request),
      cloneUrl,
    );
    payload.comment.body = '/fix';
    payload.sender.login = 'reader';
    payload.comment.user.login = 'reader';

    const result = await h.runAction('issue_comment', payload, workspace);

    expect(result.code).toBe(0);
    expect(h.openApiProblems()).toEqual([]);
    const replies = h.bodies(/^POST \/repos\/.*\/issues\/1\/comments$/).map((b) => String(b.body));
    expect(replies).toEqual([expect.stringContaining('@reader fixloop only runs for people with **write** permission')]);
    expect(h.server.urls).toEqual([]);
    expect(github.requests.some((r) => r.method !== 'GET' && !r.path.endsWith('/issues/1/comments'))).toBe(false);
    expect(result.outputs).toEqual({ status: 'no-run', 'pull-request-url': '', 'run-id': '', assessment: '' });
    expect(result.summary).toContain('@reader fixloop only runs for people with');
  }, 60_000);

  it("does nothing at all for a bot's label", async () => {
    // The one action case with the assessment on: its level is the `assessment` output.
    const github = await h.startGitHub({ config: CONFIG, loud: 'assessment' });
    const { cloneUrl, workspace } = await h.publishShop();
    const payload = forRepository(examplePayload('issues', 'labeled'), cloneUrl);
    payload.label.name = 'fixloop';
    payload.sender.login = 'renovate[bot]';
    payload.sender.type = 'Bot';

    const result = await h.runAction('issues', payload, workspace);

    expect(result.code).toBe(0);
    expect(github.requests).toEqual([]);
    expect(h.server.urls).toEqual([]);
    expect(result.outputs.status).toBe('ignored');
    expect(result.summary).toContain('does not concern fixloop');
  }, 60_000);

  it('names a missing runner variable instead of failing with a stack trace, and still writes the outputs', async () => {
    await h.startGitHub({ config: CONFIG });
    // The step's files are the test's own: a test run inside a workflow must not write to that workflow's.
    const outputPath = join(h.runnerTemp, 'output.txt');
    const summaryPath = join(h.runnerTemp, 'summary.md');
    await Promise.all([writeFile(outputPath, ''), writeFile(summaryPath, '')]);
    const result = await runCli(['action'], {
      cwd: h.runnerTemp,
      env: {
        ...h.internet.env,
        GITHUB_EVENT_PATH: '',
        GITHUB_EVENT_NAME: 'issues',
        RUNNER_TEMP: h.runnerTemp,
        GITHUB_OUTPUT: outputPath,
        GITHUB_STEP_SUMMARY: summaryPath,
      },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('GITHUB_EVENT_PATH is not set');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(parseOutputs(await readFile(outputPath, 'utf8'))).toEqual({
      status: 'error',
      'pull-request-url': '',
      'run-id': '',
      assessment: '',
    });
    expect(await readFile(summaryPath, 'utf8')).toContain('> GITHUB_EVENT_PATH is not set');
  });
});
