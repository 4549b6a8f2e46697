import { describe, expect, it } from 'vitest';
import type { PullRequestInfo } from '../../src/forge/forge.ts';
import { planForFailingCheck, planForIssue, planForPullRequest } from '../../src/triggers/run-plans.ts';

const repository = { name: 'shop', owner: 'acme', cloneUrl: 'https://github.com/acme/shop.git', defaultBranch: 'main' };
const base = { repository, actor: 'alice', deliveryId: 'd1' };
const pr = (over: Partial<PullRequestInfo> = {}): PullRequestInfo => ({
  number: 7,
  title: 'Add coupons',
  body: 'Coupons stack.',
  headRef: 'coupons',
  headSha: 'a'.repeat(40),
  baseRef: 'main',
  fromFork: false,
  headCloneUrl: 'https://github.com/acme/shop.git',
  htmlUrl: 'https://github.com/acme/shop/pull/7',
  ...over,
});

describe('plans from events', () => {
  it('an issue: the default branch, a pull request into it, the issue as the goal', () => {
    const plan = planForIssue({
      ...base,
      issue: { number: 3, title: 'Off by one', body: 'At 100 exactly.', isChangeRequest: false },
      kind: 'label',
      instructions: '',
      commentId: null,
    });
    expect(plan).toMatchObject({
      number: 3,
      ref: 'main',
      sha: null,
      baseRef: null,
      isPullRequest: false,
      target: { kind: 'pull-request', base: 'main' },
    });
    expect(plan.goal).toBe('Off by one\n\nAt 100 exactly.');
  });

  it("someone's pull request: its head, its diff as a hint, a pull request into its branch", () => {
    const plan = planForPullRequest({
      ...base,
      pr: pr(),
      kind: 'command',
      instructions: 'keep the API',
      commentId: 9,
      branchPrefix: 'fixloop/',
    });
    expect(plan).toMatchObject({
      kind: 'command',
      ref: 'coupons',
      sha: 'a'.repeat(40),
      baseRef: 'main',
      target: { kind: 'pull-request', base: 'coupons' },
      pushUrl: repository.cloneUrl,
    });
  });

  it("fixloop's own pull request: a new commit on its branch", () => {
    const plan = planForPullRequest({
      ...base,
      pr: pr({ headRef: 'fixloop/3-abc123' }),
      kind: 'command',
      instructions: 'also handle 0',
      commentId: 9,
      branchPrefix: 'fixloop/',
    });
    expect(plan).toMatchObject({
      kind: 'review',
      baseRef: null,
      target: { kind: 'push', branch: 'fixloop/3-abc123', pullRequest: 7 },
    });
  });

  it('a fork: fetched from the fork, published in the base repository against the base branch', () => {
    const fork = pr({ fromFork: true, headRef: 'fixloop/evil', headCloneUrl: 'https://github.com/mallory/shop.git' });
    const plan = planForPullRequest({
      ...base,
      pr: fork,
      kind: 'command',
      instructions: '',
      commentId: 9,
      branchPrefix: 'fixloop/',
    });
    // A fork's branch named like fixloop's is still a fork: never pushed to.
    expect(plan).toMatchObject({
      kind: 'command',
      cloneUrl: fork.headCloneUrl,
      pushUrl: repository.cloneUrl,
      target: { kind: 'pull-request', base: 'main', note: 'fork' },
    });
  });

  it('a failing check: the failing SHA, the diff since the base, a pull request into the branch', () => {
    const plan = planForFailingCheck({ ...base, pr: pr(), checkName: 'CI', sha: 'b'.repeat(40) });
    expect(plan).toMatchObject({
      kind: 'check',
      sha: 'b'.repeat(40),
      baseRef: 'main',
      target: { kind: 'pull-request', base: 'coupons' },
    });
    expect(plan.goal).toContain('`CI` failed');
  });
});
