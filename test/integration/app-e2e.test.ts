// The GitHub App end to end on issues: a real Probot receiving real payloads, a real git remote over
// HTTP on loopback (git's own http-backend, which demands the installation token as a header), the
// real fix loop and repair engine, and nock standing in for api.github.com with every request checked
// against GitHub's OpenAPI description.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUGGY_SHOP, FIXED_DISCOUNT } from '../fixtures/shop.ts';
import { PATHS_PROJECT } from '../fixtures/overfit-paths.ts';
import { git } from '../support/git-fixture.ts';
import { examplePayload, mockConfig, mockInstallationTokens, type Payload } from '../support/github-app-harness.ts';
import { OWNER, REPO, startScenario, type Scenario } from '../support/app-scenario.ts';
import { fullSuite } from '../support/suite-tier.ts';

const run = promisify(execFile);
let s: Scenario;

beforeEach(async () => {
  s = await startScenario();
});

afterEach(async () => {
  await s.close();
});

function labeledIssue(cloneUrl: string): Payload {
  const payload = examplePayload('issues', 'labeled');
  payload.label.name = 'fixloop';
  payload.repository.clone_url = cloneUrl;
  payload.repository.default_branch = 'main';
  payload.issue.title = 'No discount at exactly 100';
  payload.issue.body = 'An order of 100 gets no discount, but the terms say it should.';
  return payload;
}

describe('the GitHub App on issues, end to end', () => {
  it('turns a labeled issue into a pushed branch whose tests pass and a pull request whose body holds the report', async () => {
    const { h } = s;
    const cloneUrl = await s.publish(await s.makeWork(BUGGY_SHOP));
    mockInstallationTokens(h, 2);
    mockConfig(h, OWNER, REPO, 'test:\n  command: node --test\npr:\n  labels: [automated]\n');
    s.permission('Codertocat', 'admin');
    const statusOf = s.mockStatusComment(1, 700);
    const checksOf = s.mockCheckRun(55);
    h.scope
      .post(`/repos/${OWNER}/${REPO}/pulls`)
      .reply(201, { number: 2, html_url: 'https://github.com/Codertocat/Hello-World/pull/2' });
    h.scope.post(`/repos/${OWNER}/${REPO}/issues/2/labels`, { labels: ['automated'] }).reply(200, []);

    await h.receive('issues', labeledIssue(cloneUrl));
    await s.options.queue.drain();

    expect(h.finish()).toEqual([]);
    const [status, checks] = [statusOf(), checksOf()];
    const pr = s.bodiesOf(/^POST \/repos\/.*\/pulls$/)[0] ?? {};
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
    const head = git(s.bare(), 'rev-parse', 'refs/heads/main').trim();
    expect(checks[0]).toMatchObject({ name: 'fixloop', head_sha: head, status: 'in_progress' });
    expect(checks[1]).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(checks[1]?.output.summary).toContain('Verified fix');

    // The pushed branch, checked out fresh: the fix is there and the tests pass.
    const check = await s.makeWork({});
    git(check, 'clone', '-q', '-b', String(pr.head), s.bare(), 'repo');
    expect(await readFile(join(check, 'repo/src/discount.js'), 'utf8')).toBe(FIXED_DISCOUNT);
    const tests = await run(process.execPath, ['--test'], { cwd: join(check, 'repo') });
    expect(tests.stdout).toMatch(/pass 3/);
    expect(tests.stdout).toMatch(/fail 0/);
    expect(git(join(check, 'repo'), 'log', '-1', '--format=%s')).toContain('fixloop: No discount at exactly 100');
    await s.expectTokenNowhere([...status, String(pr.body)]);
  });

  it.runIf(fullSuite)(
    'opens a draft pull request with a neutral check when the only patches the tests accept change behaviour they do not check',
    async () => {
      const { h } = s;
      const cloneUrl = await s.publish(await s.makeWork(PATHS_PROJECT));
      mockInstallationTokens(h, 2);
      mockConfig(h, OWNER, REPO, 'test:\n  command: node --test\n');
      s.permission('Codertocat', 'admin');
      const statusOf = s.mockStatusComment(1, 705);
      const checksOf = s.mockCheckRun(60);
      h.scope
        .post(`/repos/${OWNER}/${REPO}/pulls`)
        .reply(201, { number: 3, html_url: 'https://github.com/Codertocat/Hello-World/pull/3' });

      await h.receive('issues', labeledIssue(cloneUrl));
      await s.options.queue.drain();

      expect(h.finish()).toEqual([]);
      const [status, checks] = [statusOf(), checksOf()];
      const pr = s.bodiesOf(/^POST \/repos\/.*\/pulls$/)[0] ?? {};
      // The tests pass, so there is a pull request; what else the patch changed makes it a draft.
      expect(pr.draft).toBe(true);
      expect(pr.body).not.toContain('✅ Verified fix');
      expect(pr.body).toContain('Review before merging');
      // The deciding row first: an input where the other plausible patch disagrees, shown as its own row.
      const firstRow = /\| --- \| --- \| --- \| --- \| --- \|\n(.*)\n/.exec(String(pr.body))?.[1];
      expect(firstRow).toMatch(
        /^\| `isAbsolute` .*\| `isAbsolute\('[^`]*'\)`.*another plausible patch gives another result here\*\* \|$/,
      );
      expect(checks[1]).toMatchObject({ status: 'completed', conclusion: 'neutral' });
      expect(status.at(-1)).toContain('opened draft #3');
      await s.expectTokenNowhere([...status, String(pr.body)]);
    },
  );

  it('says there is nothing to fix when the tests already pass, and opens nothing', async () => {
    const { h } = s;
    const cloneUrl = await s.publish(await s.makeWork({ ...BUGGY_SHOP, 'src/discount.js': FIXED_DISCOUNT }));
    mockInstallationTokens(h, 1);
    mockConfig(h, OWNER, REPO, 'test:\n  command: node --test\n');
    s.permission('Codertocat', 'write');
    const statusOf = s.mockStatusComment(1, 701);
    const checksOf = s.mockCheckRun(56);

    await h.receive('issues', labeledIssue(cloneUrl));
    await s.options.queue.drain();

    expect(h.finish()).toEqual([]);
    const [status, checks] = [statusOf(), checksOf()];
    expect(status.at(-1)).toContain('nothing to fix');
    expect(status.at(-1)).toContain('a failing test');
    expect(checks[1]).toMatchObject({ conclusion: 'neutral' });
    expect(git(s.bare(), 'branch', '--list', 'fixloop/*').trim()).toBe('');
    await s.expectTokenNowhere(status);
  });

  it('runs once for the same delivery received 100 times', async () => {
    const { h } = s;
    const cloneUrl = await s.publish(await s.makeWork({ ...BUGGY_SHOP, 'src/discount.js': FIXED_DISCOUNT }));
    mockInstallationTokens(h, 1);
    mockConfig(h, OWNER, REPO, 'test:\n  command: node --test\n');
    s.permission('Codertocat', 'write');
    const statusOf = s.mockStatusComment(1, 704);
    s.mockCheckRun(59);

    const payload = labeledIssue(cloneUrl);
    await Promise.all(Array.from({ length: 100 }, () => h.receive('issues', payload, 'redelivered-guid')));
    await s.options.queue.drain();

    // One run, one status comment, one check run: nock fails the test on any second request.
    expect(h.finish()).toEqual([]);
    expect(await s.store.list(10)).toHaveLength(1);
    expect(statusOf().at(-1)).toContain('nothing to fix');
  });

  it('escalates to a human with the failing tests, the reason and a label when the engines find nothing', async () => {
    const { h } = s;
    const cloneUrl = await s.publish(await s.makeWork(BUGGY_SHOP));
    mockInstallationTokens(h, 1);
    // An engine that changes nothing: the loop must stop on no progress and say so.
    mockConfig(
      h,
      OWNER,
      REPO,
      'test:\n  command: node --test\nengines: [script]\nscript:\n  command: "true"\nloop:\n  maxAttempts: 3\n',
    );
    s.permission('Codertocat', 'write');
    const payload = examplePayload('issue_comment', 'created', (p: Payload) => !p.issue.pull_request);
    payload.repository.clone_url = cloneUrl;
    payload.repository.default_branch = 'main';
    payload.comment.body = '/fix amounts of exactly 100 must get the discount';
    h.scope
      .post(`/repos/${OWNER}/${REPO}/issues/comments/${payload.comment.id}/reactions`, { content: 'eyes' })
      .reply(201, { id: 1, content: 'eyes' });
    const statusOf = s.mockStatusComment(1, 702);
    const checksOf = s.mockCheckRun(57);
    h.scope.post(`/repos/${OWNER}/${REPO}/issues/1/labels`, { labels: ['fixloop:needs-human'] }).reply(200, []);

    await h.receive('issue_comment', payload);
    await s.options.queue.drain();

    expect(h.finish()).toEqual([]);
    const [status, checks] = [statusOf(), checksOf()];
    expect(status[0]).toContain('> amounts of exactly 100 must get the discount');
    const final = status.at(-1) ?? '';
    expect(final).toContain('needs a human');
    expect(final).toContain('the discount starts at 100');
    expect(final).toMatch(/no progress|failed attempts|gave up/);
    expect(final).toContain('/fix retry');
    expect(checks[1]).toMatchObject({ conclusion: 'failure' });
    await s.expectTokenNowhere(status);
  });
});

describe('the GitHub App on GitHub Enterprise Server', () => {
  it('asks the configured API for every request, the first installation token included', async () => {
    await s.close();
    // GHE_HOST=ghe.example.com gives Probot this base URL; the token cache starts empty.
    s = await startScenario({}, { baseUrl: 'https://ghe.example.com/api/v3' });
    const { h } = s;
    const cloneUrl = await s.publish(await s.makeWork({ ...BUGGY_SHOP, 'src/discount.js': FIXED_DISCOUNT }));
    mockInstallationTokens(h, 1);
    mockConfig(h, OWNER, REPO, 'test:\n  command: node --test\n');
    s.permission('Codertocat', 'write');
    const statusOf = s.mockStatusComment(1, 703);
    s.mockCheckRun(58);

    await h.receive('issues', labeledIssue(cloneUrl));
    await s.options.queue.drain();

    // nock refuses any other host: a request to api.github.com would have failed the run.
    expect(h.finish()).toEqual([]);
    expect(statusOf().at(-1)).toContain('nothing to fix');
    expect(h.logs.join('')).toContain('https://ghe.example.com/api/v3/app/installations/4242/access_tokens');
    expect(h.logs.join('')).not.toContain('api.github.com/app');
  });
});
