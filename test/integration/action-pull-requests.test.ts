// `fixloop action` on pull requests and on what goes wrong, end to end as a runner runs it
// (test/support/action-harness.ts): a failing workflow run reproduced at the pull request's head and
// fixed with a pull request into its branch, the loop guard counted from GitHub, a review on fixloop's
// own pull request answered with a new commit, `/fix status` and `/fix help` answered without a clone,
// and a failing setup, a broken event file and an event fixloop does not answer told plainly, with
// the documented exit code and the step's outputs written all the same.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUGGY_DISCOUNT, FIXED_DISCOUNT } from '../fixtures/shop.ts';
import {
  actionlessExample,
  forRepository,
  pullRequestAnswer,
  pullRequestUrl,
  startActionHarness,
  statusCommentAnswer,
  type ActionHarness,
  type ActionRun,
} from '../support/action-harness.ts';
import { git } from '../support/git-fixture.ts';
import { examplePayload, type Payload } from '../support/github-app-harness.ts';

const CONFIG = 'test:\n  command: node --test\n';
const CHECKS_ON = `${CONFIG}triggers:\n  failingChecks: true\n  maxRunsPerPullRequest: 2\n`;
const OWN_BRANCH = 'fixloop/1-abc123';

let h: ActionHarness;

beforeEach(async () => {
  h = await startActionHarness();
});

afterEach(async () => {
  // Nothing any test ran reached past loopback.
  expect(h.internet.attempts).toEqual([]);
  await h.close();
});

/** `workflow_run: completed` as the runner writes it: the CI workflow failed on pull request #2's head. */
function failedWorkflowRun(
  cloneUrl: string,
  pr: { number: number; ref: string; sha: string },
  sender = { login: 'Codertocat', type: 'User' },
): Payload {
  const payload = forRepository(
    examplePayload('workflow_run', 'completed', (p: Payload) => p.workflow_run.pull_requests.length > 0),
    cloneUrl,
  );
  Object.assign(payload.workflow_run, { name: 'CI', conclusion: 'failure', head_sha: pr.sha, head_branch: pr.ref });
  Object.assign(payload.workflow_run.pull_requests[0], {
    number: pr.number,
    head: { ...payload.workflow_run.pull_requests[0].head, ref: pr.ref, sha: pr.sha },
  });
  Object.assign(payload.sender, sender);
  return payload;
}

function comment(body: string, cloneUrl: string): Payload {
  const payload = forRepository(
    examplePayload('issue_comment', 'created', (p: Payload) => !p.issue.pull_request),
    cloneUrl,
  );
  payload.comment.body = body;
  return payload;
}

/** The run started nothing: no clone, nothing written on GitHub, and the step says so. */
function expectNoRun(result: ActionRun, status: 'no-run' | 'ignored'): void {
  expect(result.code).toBe(0);
  expect(h.server.urls).toEqual([]);
  expect(h.github().requests.filter((r) => r.method !== 'GET')).toEqual([]);
  expect(result.outputs).toEqual({ status, 'pull-request-url': '', 'run-id': '', assessment: '' });
}

describe('fixloop action on a failing workflow run (triggers.failingChecks)', () => {
  it("reproduces the failure at the pull request's head and opens a pull request into its branch", async () => {
    const { cloneUrl, workspace, head } = await h.publishShop({
      main: { 'src/discount.js': FIXED_DISCOUNT },
      branch: { name: 'changes', files: { 'src/discount.js': BUGGY_DISCOUNT } },
    });
    // One earlier fixloop run on #2, under the limit of two.
    await h.startGitHub({
      config: CHECKS_ON,
      pulls: { 2: pullRequestAnswer({ number: 2, head: { ref: 'changes', sha: head }, cloneUrl }) },
      comments: { 2: [statusCommentAnswer(501, 'earlier-run', '❌ **fixloop** could not fix this.')] },
    });

    const result = await h.runAction(
      'workflow_run',
      failedWorkflowRun(cloneUrl, { number: 2, ref: 'changes', sha: head }),
      workspace,
    );

    expect(result.stderr).not.toMatch(/system error|\n\s+at /);
    expect(result.code).toBe(0);
    expect(h.openApiProblems()).toEqual([]);
    expect(h.bodies(/^GET \/repos\/Codertocat\/Hello-World\/pulls\/2$/)).toHaveLength(1);
    const pr = h.bodies(/^POST \/repos\/Codertocat\/Hello-World\/pulls$/)[0] ?? {};
    expect(pr).toMatchObject({ base: 'changes', draft: false });
    expect(pr.head).toMatch(/^fixloop\/2-[0-9a-f]{6}$/);
    expect(pr.body).toContain('For #2.');
    expect(pr.body).not.toContain('Fixes #');
    expect(pr.body).toContain('✅ Verified fix');
    // Worked on the failing commit itself, and said so on it.
    expect(h.bodies(/^POST \/repos\/.*\/check-runs$/)[0]).toMatchObject({ head_sha: head });
    const statuses = [
      ...h.bodies(/^POST \/repos\/.*\/issues\/2\/comments$/),
      ...h.bodies(/^PATCH \/repos\/.*\/issues\/comments\/\d+$/),
    ].map((b) => String(b.body));
    expect(statuses.at(-1)).toContain('opened #77');
    // The new branch is the failing commit plus the fix.
    const branch = String(pr.head);
    git(h.bare(), 'merge-base', '--is-ancestor', head, branch);
    expect(git(h.bare(), 'show', `${branch}:src/discount.js`)).toBe(FIXED_DISCOUNT);
    expect(result.outputs).toMatchObject({ status: 'tests_green', 'pull-request-url': 'http://example.invalid/pull/77' });
    expect(result.summary).toContain('✅ Verified fix');
  }, 180_000);

  it("starts nothing on fixloop's own branch once fixloop has run there (the loop guard)", async () => {
    const { cloneUrl, workspace, head } = await h.publishShop({ branch: { name: OWN_BRANCH, files: {} } });
    await h.startGitHub({
      config: CHECKS_ON,
      pulls: { 77: pullRequestAnswer({ number: 77, head: { ref: OWN_BRANCH, sha: head }, cloneUrl }) },
      comments: { 77: [statusCommentAnswer(502, 'review-run', '✅ **fixloop** pushed a new commit.')] },
    });

    const result = await h.runAction(
      'workflow_run',
      failedWorkflowRun(cloneUrl, { number: 77, ref: OWN_BRANCH, sha: head }),
      workspace,
    );

    expectNoRun(result, 'no-run');
    expect(h.openApiProblems()).toEqual([]);
    expect(result.stderr).toContain('run limit reached');
    // Why, where the workflow's run shows it: fixloop's own log line, not a guess.
    expect(result.summary).toContain("fixloop's log said:\n\n- failing check ignored: run limit reached");
  }, 60_000);

  it('starts nothing on a pull request that has had triggers.maxRunsPerPullRequest fixloop runs', async () => {
    const { cloneUrl, workspace, head } = await h.publishShop({
      branch: { name: 'changes', files: { 'src/discount.js': BUGGY_DISCOUNT } },
    });
    await h.startGitHub({
      config: CHECKS_ON,
      pulls: { 2: pullRequestAnswer({ number: 2, head: { ref: 'changes', sha: head }, cloneUrl }) },
      comments: {
        2: [
          statusCommentAnswer(503, 'first-run', '❌ not fixed'),
          { ...statusCommentAnswer(504, 'x', ''), body: 'Thanks, fixloop!' },
          statusCommentAnswer(505, 'second-run', '❌ not fixed'),
        ],
      },
    });

    const result = await h.runAction(
      'workflow_run',
      failedWorkflowRun(cloneUrl, { number: 2, ref: 'changes', sha: head }),
      workspace,
    );

    expectNoRun(result, 'no-run');
    expect(h.openApiProblems()).toEqual([]);
    expect(result.stderr).toMatch(/"used":2,"limit":2.*run limit reached/);
  }, 60_000);

  it('ignores a failure of a push made by a bot (fixloop with an App token included), before any request', async () => {
    const { cloneUrl, workspace, head } = await h.publishShop({ branch: { name: OWN_BRANCH, files: {} } });
    await h.startGitHub({ config: CHECKS_ON });

    const result = await h.runAction(
      'workflow_run',
      failedWorkflowRun(cloneUrl, { number: 77, ref: OWN_BRANCH, sha: head }, { login: 'fixloop-app[bot]', type: 'Bot' }),
      workspace,
    );

    expectNoRun(result, 'ignored');
    expect(h.github().requests).toEqual([]);
  }, 60_000);

  it('starts nothing when the pull request has moved on from the commit that failed', async () => {
    const { cloneUrl, workspace, head } = await h.publishShop({
      branch: { name: 'changes', files: { 'src/discount.js': BUGGY_DISCOUNT } },
    });
    await h.startGitHub({
      config: CHECKS_ON,
      pulls: { 2: pullRequestAnswer({ number: 2, head: { ref: 'changes', sha: 'f'.repeat(40) }, cloneUrl }) },
    });

    const result = await h.runAction(
      'workflow_run',
      failedWorkflowRun(cloneUrl, { number: 2, ref: 'changes', sha: head }),
      workspace,
    );

    expectNoRun(result, 'no-run');
    expect(h.openApiProblems()).toEqual([]);
  }, 60_000);
});

describe('fixloop action on a review of its own pull request', () => {
  it('answers "request changes" with a new commit on the pull request\'s branch', async () => {
    // fixloop's earlier branch left the bug in place; the reviewer says so.
    const { cloneUrl, workspace, head } = await h.publishShop({
      main: { 'src/discount.js': FIXED_DISCOUNT },
      branch: { name: OWN_BRANCH, files: { 'src/discount.js': BUGGY_DISCOUNT } },
    });
    await h.startGitHub({
      config: CONFIG,
      permissions: { Codertocat: 'write' },
      pulls: { 2: pullRequestAnswer({ number: 2, head: { ref: OWN_BRANCH, sha: head }, cloneUrl }) },
    });
    const review = forRepository(examplePayload('pull_request_review', 'submitted'), cloneUrl);
    review.review.state = 'changes_requested';
    review.review.body = 'An order of exactly 100 must get the discount too.';
    review.pull_request.head.ref = OWN_BRANCH;
    review.pull_request.number = 2;

    const result = await h.runAction('pull_request_review', review, workspace);

    expect(result.stderr).not.toMatch(/system error|\n\s+at /);
    expect(result.code).toBe(0);
    expect(h.openApiProblems()).toEqual([]);
    expect(h.bodies(/^POST \/repos\/.*\/pulls$/)).toEqual([]);
    const statuses = [
      ...h.bodies(/^POST \/repos\/.*\/issues\/2\/comments$/),
      ...h.bodies(/^PATCH \/repos\/.*\/issues\/comments\/\d+$/),
    ].map((b) => String(b.body));
    expect(statuses[0]).toContain('> An order of exactly 100 must get the discount too.');
    expect(statuses.at(-1)).toContain(`pushed a new commit to \`${OWN_BRANCH}\``);
    const tip = git(h.bare(), 'rev-parse', `refs/heads/${OWN_BRANCH}`).trim();
    expect(git(h.bare(), 'rev-parse', `${tip}^`).trim()).toBe(head);
    expect(git(h.bare(), 'show', `${tip}:src/discount.js`)).toBe(FIXED_DISCOUNT);
    expect(result.outputs).toMatchObject({ status: 'tests_green', 'pull-request-url': pullRequestUrl(2) });
    expect(result.summary).toContain(`Pull request: ${pullRequestUrl(2)}`);
  }, 180_000);
});

describe('fixloop action on /fix status and /fix help', () => {
  it.each([
    ['/fix status', 'No **fixloop** run is active here.'],
    ['/fix help', '`/fix retry` — run again with the last instructions'],
  ])(
    'answers `%s` with a reply, and clones nothing',
    async (body, reply) => {
      const { cloneUrl, workspace } = await h.publishShop();
      await h.startGitHub({ config: CONFIG });

      const result = await h.runAction('issue_comment', comment(body, cloneUrl), workspace);

      expect(result.code).toBe(0);
      expect(h.openApiProblems()).toEqual([]);
      expect(h.bodies(/^POST \/repos\/.*\/issues\/1\/comments$/).map((b) => String(b.body))).toEqual([
        expect.stringContaining(reply),
      ]);
      expect(h.server.urls).toEqual([]);
      expect(h.github().requests.filter((r) => r.method !== 'GET' && !r.path.endsWith('/issues/1/comments'))).toEqual([]);
      expect(result.outputs).toEqual({ status: 'no-run', 'pull-request-url': '', 'run-id': '', assessment: '' });
      expect(result.summary).toContain(reply);
    },
    60_000,
  );
});

describe('fixloop action when something is wrong', () => {
  it('fails the step on a failing setup, says why on GitHub and in the log, and still writes its outputs', async () => {
    const { cloneUrl, workspace } = await h.publishShop();
    await h.startGitHub({ config: `setup:\n  command: "echo 'npm ERR! missing: left-pad' >&2; exit 3"\n${CONFIG}` });
    const payload = forRepository(examplePayload('issues', 'labeled'), cloneUrl);
    payload.label.name = 'fixloop';

    const result = await h.runAction('issues', payload, workspace);

    expect(result.code).toBe(3);
    expect(h.openApiProblems()).toEqual([]);
    // The cause, lines and all, as one annotation on the workflow run.
    expect(result.stdout).toMatch(
      /^::error title=fixloop::the setup command .* failed \(exit 3\).*%0Anpm ERR! missing: left-pad/m,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const statuses = [
      ...h.bodies(/^POST \/repos\/.*\/issues\/1\/comments$/),
      ...h.bodies(/^PATCH \/repos\/.*\/issues\/comments\/\d+$/),
    ].map((b) => String(b.body));
    expect(statuses.at(-1)).toContain('npm ERR! missing: left-pad');
    expect(h.bodies(/^POST \/repos\/.*\/pulls$/)).toEqual([]);
    expect(result.outputs).toMatchObject({ status: 'error', 'pull-request-url': '' });
    expect(result.outputs['run-id']).toMatch(/^[a-z0-9-]+$/);
    expect(result.summary).toContain('npm ERR! missing: left-pad');
  }, 120_000);

  it('names an event file that is not JSON, exits 2, and still writes its outputs and summary', async () => {
    const { workspace } = await h.publishShop();
    await h.startGitHub({ config: CONFIG });

    const result = await h.runAction('issues', '{"action": "labeled", ', workspace);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/fixloop: GITHUB_EVENT_PATH `.*event\.json` is not a JSON event/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(h.github().requests).toEqual([]);
    expect(result.outputs).toEqual({ status: 'error', 'pull-request-url': '', 'run-id': '', assessment: '' });
    expect(result.summary).toMatch(/could not be handled\n\n> GITHUB_EVENT_PATH `.*` is not a JSON event/);
    expect(result.stdout).toMatch(/^::error title=fixloop::GITHUB_EVENT_PATH `.*` is not a JSON event/m);
  }, 60_000);

  it.each([
    ['push', () => actionlessExample('push')],
    ['pull_request_review', () => examplePayload('pull_request_review', 'dismissed')],
  ])(
    'answers a `%s` event it does not handle with nothing, exit 0 and the outputs',
    async (eventName, make) => {
      const { cloneUrl, workspace } = await h.publishShop();
      await h.startGitHub({ config: CONFIG });

      const result = await h.runAction(eventName, forRepository(make(), cloneUrl), workspace);

      expectNoRun(result, 'ignored');
      expect(h.github().requests).toEqual([]);
      expect(result.stdout).toContain('fixloop does not answer');
      expect(result.summary).toMatch(/fixloop does not answer `pull_request_review\.dismissed`|fixloop does not answer `push`/);
    },
    60_000,
  );
});
