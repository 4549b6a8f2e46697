// The GitHub App on pull requests, end to end: a failing check reproduced (or not) at its SHA and fixed
// with a pull request into the branch, a review on fixloop's own pull request answered with a new
// commit, and /fix status, cancel and a second trigger while a run is active.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUGGY_DISCOUNT, BUGGY_SHOP, FIXED_DISCOUNT } from '../fixtures/shop.ts';
import { git } from '../support/git-fixture.ts';
import { examplePayload, mockConfig, mockInstallationTokens, type Payload } from '../support/github-app-harness.ts';
import { createBareRepoFrom } from '../support/git-http-server.ts';
import { OWNER, REPO, startScenario, type Scenario } from '../support/app-scenario.ts';
import { fullSuite } from '../support/suite-tier.ts';

let s: Scenario;

beforeEach(async () => {
  s = await startScenario();
});

afterEach(async () => {
  await s.close();
});

/** A remote whose main is right and whose `branch` has one more commit with `discount` in it. */
async function remoteWithBranch(
  branch: string,
  discount: string,
  main = FIXED_DISCOUNT,
): Promise<{ cloneUrl: string; head: string }> {
  const work = await s.makeWork({ ...BUGGY_SHOP, 'src/discount.js': main });
  git(work, 'checkout', '-q', '-b', branch);
  await writeFile(join(work, 'src/discount.js'), discount);
  git(work, 'commit', '-q', '--allow-empty', '-am', 'Rework the discount');
  const head = git(work, 'rev-parse', 'HEAD').trim();
  return { cloneUrl: await s.publish(work), head };
}

function mockPullRequest(number: number, head: { ref: string; sha: string }, cloneUrl: string): void {
  const repo = { full_name: `${OWNER}/${REPO}`, clone_url: cloneUrl };
  s.h.scope.get(`/repos/${OWNER}/${REPO}/pulls/${number}`).reply(200, {
    number,
    title: 'Rework the discount',
    body: 'Simpler code.',
    html_url: `https://github.com/${OWNER}/${REPO}/pull/${number}`,
    head: { ref: head.ref, sha: head.sha, repo },
    base: { ref: 'main', sha: '0'.repeat(40), repo },
  });
}

function failingSuite(cloneUrl: string, sha: string, number: number): Payload {
  const payload = examplePayload('check_suite', 'completed', (p: Payload) => p.check_suite.pull_requests.length > 0);
  payload.check_suite.conclusion = 'failure';
  payload.check_suite.head_sha = sha;
  payload.check_suite.pull_requests[0].number = number;
  payload.repository.clone_url = cloneUrl;
  payload.repository.default_branch = 'main';
  return payload;
}

// No case here is about the assessment (app-e2e's and assessment.test.ts are) nor about the repair
// engine's exploration (cli-repair's and explore-plausible's are): both are off, which spares each
// green run a checkout, three suite runs and the candidates after the first plausible one.
const NO_ASSESSMENT = 'repair:\n  exploreTime: 0\nassessment:\n  enabled: false\n';
const CHECKS_ON = `test:\n  command: node --test\ntriggers:\n  failingChecks: true\n${NO_ASSESSMENT}`;

describe('the GitHub App on pull requests, end to end', () => {
  it('reproduces a failing check at its SHA and opens a pull request into that branch, hinted by its diff', async () => {
    const { h } = s;
    const { cloneUrl, head } = await remoteWithBranch('changes', BUGGY_DISCOUNT);
    mockInstallationTokens(h, 2);
    mockConfig(h, OWNER, REPO, CHECKS_ON);
    mockPullRequest(2, { ref: 'changes', sha: head }, cloneUrl);
    const statusOf = s.mockStatusComment(2, 800);
    const checksOf = s.mockCheckRun(80);
    h.scope
      .post(`/repos/${OWNER}/${REPO}/pulls`)
      .reply(201, { number: 3, html_url: `https://github.com/${OWNER}/${REPO}/pull/3` });

    await h.receive('check_suite', failingSuite(cloneUrl, head, 2));
    await s.options.queue.drain();

    expect(h.finish()).toEqual([]);
    const pr = s.bodiesOf(/^POST \/repos\/.*\/pulls$/)[0] ?? {};
    expect(pr).toMatchObject({ base: 'changes', draft: false });
    expect(pr.head).toMatch(/^fixloop\/2-/);
    expect(pr.body).toContain('For #2.');
    expect(pr.body).not.toContain('Fixes #');
    expect(checksOf()[0]).toMatchObject({ head_sha: head });
    expect(statusOf().at(-1)).toContain('opened #3');
    // The pull request's own diff was the localization hint.
    const runId = /run=([a-z0-9-]+)/.exec(String(pr.body))?.[1] ?? '';
    const result = JSON.parse(await readFile(join(s.artifacts, runId, 'result.json'), 'utf8')) as {
      events: Array<{ message: string }>;
    };
    expect(result.events.map((e) => e.message)).toContain('localization hints: 1 file(s) changed since main');
    git(s.bare(), 'merge-base', '--is-ancestor', head, String(pr.head));
  });

  it('says a failing check that does not reproduce is likely flaky, and stops; fixloop reacts once per own branch', async () => {
    const { h } = s;
    const { cloneUrl, head } = await remoteWithBranch('fixloop/1-abc123', FIXED_DISCOUNT);
    mockInstallationTokens(h, 1);
    mockConfig(h, OWNER, REPO, CHECKS_ON);
    mockPullRequest(2, { ref: 'fixloop/1-abc123', sha: head }, cloneUrl);
    const statusOf = s.mockStatusComment(2, 801);
    const checksOf = s.mockCheckRun(81);
    // The second failure on fixloop's own branch: read, and ignored (the loop guard).
    mockConfig(h, OWNER, REPO, CHECKS_ON);
    mockPullRequest(2, { ref: 'fixloop/1-abc123', sha: head }, cloneUrl);

    await h.receive('check_suite', failingSuite(cloneUrl, head, 2));
    await s.options.queue.drain();
    await h.receive('check_suite', failingSuite(cloneUrl, head, 2));
    await s.options.queue.drain();
    expect(h.finish()).toEqual([]);
    expect(statusOf().at(-1)).toContain('could not reproduce the failure');
    // The green baseline ran 3 more times (`loop.flakyReruns`) before it was "not reproduced".
    expect(statusOf().at(-1)).toMatch(/passes at `[0-9a-f]{12}` in each of 4 runs/);
    expect(statusOf().at(-1)).toContain('flaky');
    expect(checksOf()[1]).toMatchObject({ conclusion: 'neutral' });
    expect(s.h.logs.join('')).toContain('run limit reached');
  });

  it.runIf(fullSuite)(
    "answers a review that requests changes on fixloop's pull request with a new commit on its branch",
    async () => {
      const { h } = s;
      // fixloop's earlier branch left the bug in place; the reviewer says so.
      const { cloneUrl, head } = await remoteWithBranch('fixloop/1-abc123', BUGGY_DISCOUNT);
      mockInstallationTokens(h, 2);
      mockConfig(h, OWNER, REPO, `test:\n  command: node --test\n${NO_ASSESSMENT}`);
      mockPullRequest(2, { ref: 'fixloop/1-abc123', sha: head }, cloneUrl);
      s.permission('Codertocat', 'maintain');
      const statusOf = s.mockStatusComment(2, 802);
      s.mockCheckRun(82);
      const review = examplePayload('pull_request_review', 'submitted');
      review.review.state = 'changes_requested';
      review.review.body = 'An order of exactly 100 must get the discount too.';
      review.pull_request.head.ref = 'fixloop/1-abc123';
      review.pull_request.number = 2;
      review.repository.clone_url = cloneUrl;

      await h.receive('pull_request_review', review);
      await s.options.queue.drain();

      expect(h.finish()).toEqual([]);
      expect(s.bodiesOf(/^POST \/repos\/.*\/pulls$/)).toEqual([]);
      expect(statusOf()[0]).toContain('> An order of exactly 100 must get the discount too.');
      expect(statusOf().at(-1)).toContain('pushed a new commit to `fixloop/1-abc123`');
      const tip = git(s.bare(), 'rev-parse', 'refs/heads/fixloop/1-abc123').trim();
      expect(git(s.bare(), 'rev-parse', `${tip}^`).trim()).toBe(head);
      expect(git(s.bare(), 'show', `${tip}:src/discount.js`)).toBe(FIXED_DISCOUNT);
    },
  );

  it.runIf(fullSuite)("fixes a fork's pull request in the base repository, against its base branch, and says so", async () => {
    const { h } = s;
    // The base repository is right; the fork's branch brings the bug.
    const baseUrl = await s.publish(await s.makeWork({ ...BUGGY_SHOP, 'src/discount.js': FIXED_DISCOUNT }));
    const forkWork = await s.makeWork({ ...BUGGY_SHOP, 'src/discount.js': FIXED_DISCOUNT });
    git(forkWork, 'checkout', '-q', '-b', 'changes');
    await writeFile(join(forkWork, 'src/discount.js'), BUGGY_DISCOUNT);
    git(forkWork, 'commit', '-q', '-am', 'Rework the discount');
    const head = git(forkWork, 'rev-parse', 'HEAD').trim();
    const forkUrl = await createBareRepoFrom(s.server, 'fork', forkWork);
    mockInstallationTokens(h, 2);
    mockConfig(h, OWNER, REPO, `test:\n  command: node --test\n${NO_ASSESSMENT}`);
    s.permission('Codertocat', 'write');
    const payload = examplePayload('issue_comment', 'created');
    // An issue comment on a pull request: GitHub sends the issue with a `pull_request` link.
    payload.issue.number = 2;
    payload.issue.pull_request = { url: `https://api.github.com/repos/${OWNER}/${REPO}/pulls/2` };
    payload.comment.body = '/fix';
    payload.repository.clone_url = baseUrl;
    h.scope
      .post(`/repos/${OWNER}/${REPO}/issues/comments/${payload.comment.id}/reactions`)
      .reply(201, { id: 1, content: 'eyes' });
    h.scope.get(`/repos/${OWNER}/${REPO}/pulls/2`).reply(200, {
      number: 2,
      title: 'Rework the discount',
      body: '',
      html_url: `https://github.com/${OWNER}/${REPO}/pull/2`,
      head: { ref: 'changes', sha: head, repo: { full_name: 'mallory/Hello-World', clone_url: forkUrl } },
      base: { ref: 'main', sha: '0'.repeat(40), repo: { full_name: `${OWNER}/${REPO}`, clone_url: baseUrl } },
    });
    const statusOf = s.mockStatusComment(2, 805);
    s.mockCheckRun(85);
    h.scope
      .post(`/repos/${OWNER}/${REPO}/pulls`)
      .reply(201, { number: 3, html_url: `https://github.com/${OWNER}/${REPO}/pull/3` });

    await h.receive('issue_comment', payload);
    await s.options.queue.drain();
    expect(h.finish()).toEqual([]);
    const pr = s.bodiesOf(/^POST \/repos\/.*\/pulls$/)[0] ?? {};
    expect(pr).toMatchObject({ base: 'main' });
    expect(pr.body).toContain('comes from a fork, which fixloop cannot push to');
    expect(statusOf().at(-1)).toContain('opened #3');
    // The branch is in the base repository, with the fork's commit and the fix on top.
    const branch = String(pr.head);
    expect(git(s.bare(), 'show', `${branch}:src/discount.js`)).toBe(FIXED_DISCOUNT);
    expect(git(s.bare(), 'rev-parse', `${branch}^`).trim()).toBe(head);
    expect(git(join(s.server.root, 'fork.git'), 'branch', '--list', 'fixloop/*').trim()).toBe('');
  });

  it('tells the status of an active run, points a second trigger at it, and cancels it for real', async () => {
    const { h } = s;
    const cloneUrl = await s.publish(await s.makeWork(BUGGY_SHOP));
    // An engine that sleeps: the run stays active until cancelled.
    const config = 'test:\n  command: node --test\nengines: [script]\nscript:\n  command: "sleep 120"\n';
    mockInstallationTokens(h, 1);
    const comment = (body: string): Payload => {
      const payload = examplePayload('issue_comment', 'created', (p: Payload) => !p.issue.pull_request);
      payload.repository.clone_url = cloneUrl;
      payload.repository.default_branch = 'main';
      payload.comment.body = body;
      return payload;
    };
    const reactions = `/repos/${OWNER}/${REPO}/issues/comments/${comment('').comment.id}/reactions`;
    for (let i = 0; i < 4; i++) mockConfig(h, OWNER, REPO, config);
    for (let i = 0; i < 3; i++) s.permission('Codertocat', 'write');
    h.scope.post(reactions).times(2).reply(201, { id: 1, content: 'eyes' });
    const statusOf = s.mockStatusComment(1, 803);
    const checksOf = s.mockCheckRun(83);
    h.scope.post(`/repos/${OWNER}/${REPO}/issues/1/comments`).times(3).reply(201, { id: 900 });

    await h.receive('issue_comment', comment('/fix'));
    // Wait until the engine is running.
    for (let i = 0; i < 200 && !/attempt/.test((await s.options.queue.status(`${OWNER}/${REPO}#1`))?.progress ?? ''); i++)
      await new Promise((r) => setTimeout(r, 50));
    await h.receive('issue_comment', comment('/fix status'));
    await h.receive('issue_comment', comment('/fix again please, now'));
    const cancelledAt = Date.now();
    await h.receive('issue_comment', comment('/fix cancel'));
    await s.options.queue.drain();
    const cancelMs = Date.now() - cancelledAt;

    expect(h.finish()).toEqual([]);
    const replies = s
      .bodiesOf(new RegExp(`^POST /repos/${OWNER}/${REPO}/issues/1/comments$`))
      .map((b) => String(b.body))
      .slice(1);
    expect(replies[0]).toMatch(/run `[a-z0-9-]+` is running \(attempt 1\/5\)/);
    expect(replies[1]).toContain('already active');
    expect(replies[2]).toContain('Cancelling run');
    expect(statusOf().at(-1)).toContain('cancelled by @Codertocat');
    expect(checksOf()[1]).toMatchObject({ conclusion: 'cancelled' });
    // The audit trail records who cancelled, and the run ended `cancelled`.
    const [run] = await s.store.list(1);
    expect(run?.state).toBe('cancelled');
    expect((await s.store.events(run?.runId ?? '')).find((e) => e.kind === 'cancel-requested')?.data).toEqual({
      by: 'Codertocat',
    });
    // `sleep 120` was killed with its process group, not waited for.
    expect(cancelMs).toBeLessThan(60_000);
  });
});
