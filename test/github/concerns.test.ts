// Which GitHub deliveries are worth storing, from the payload alone: the policy the intake (and the
// Action) applies before it answers a webhook, per trigger's GitHub binding. Bots never start anything; most comments and most check results are not for fixloop.
import { describe, expect, it } from 'vitest';
import {
  assignOnGitHub,
  checkSuiteOnGitHub as checkSuiteTrigger,
  commentOnGitHub as commentTrigger,
  labelOnGitHub as labelTrigger,
  reviewOnGitHub as reviewTrigger,
  unassignOnGitHub,
  workflowRunOnGitHub as workflowRunTrigger,
} from '../../src/github/github-events.ts';
import type { CheckSuitePayload, CommentPayload, WorkflowRunPayload } from '../../src/github/webhook-payloads.ts';
import { worthStoring } from '../../src/github/webhook-trigger.ts';

const repository = {
  name: 'shop',
  owner: { login: 'acme' },
  clone_url: 'https://github.com/acme/shop.git',
  default_branch: 'main',
};
const user = { login: 'alice', type: 'User' };
const bot = { login: 'fixloop[bot]', type: 'Bot' };
const self = { appId: 42 };

const comment = (body: string, sender = user): CommentPayload => ({
  repository,
  issue: { number: 1, title: 'Off by one' },
  comment: { id: 9, body, user: sender },
  sender,
});
const suite = (over: Partial<CheckSuitePayload['check_suite']> = {}): CheckSuitePayload => ({
  repository,
  check_suite: {
    id: 5,
    conclusion: 'failure',
    head_sha: 'a'.repeat(40),
    pull_requests: [{ number: 7 }],
    app: { id: 1, name: 'CI' },
    ...over,
  },
  sender: user,
});
const run = (over: Partial<WorkflowRunPayload['workflow_run']> = {}): WorkflowRunPayload => ({
  repository,
  workflow_run: {
    id: 6,
    conclusion: 'failure',
    head_sha: 'a'.repeat(40),
    pull_requests: [{ number: 7 }],
    name: 'tests',
    ...over,
  },
  sender: user,
});

describe('which deliveries concern fixloop', () => {
  it('a label, whatever its name (the config, read later, says which one counts)', () => {
    expect(
      worthStoring(labelTrigger, { repository, issue: { number: 1, title: 't' }, label: { name: 'bug' }, sender: user }, self),
    ).toBe(true);
    expect(worthStoring(labelTrigger, { repository, issue: { number: 1, title: 't' }, sender: user }, self)).toBe(false);
  });

  it("an issue's assignment or unassignment with an assignee, by a person (the config, read later, says which login counts)", () => {
    const assigned = { repository, issue: { number: 1, title: 't' }, assignee: { login: 'fixloop-bot' }, sender: user };
    for (const binding of [assignOnGitHub, unassignOnGitHub]) {
      expect(worthStoring(binding, assigned, self)).toBe(true);
      expect(worthStoring(binding, { ...assigned, assignee: null }, self)).toBe(false);
      expect(worthStoring(binding, { ...assigned, sender: bot }, self)).toBe(false);
      expect(worthStoring(binding, { ...assigned, issue: { ...assigned.issue, pull_request: {} } }, self)).toBe(false);
    }
  });

  it('a comment that starts with a slash, from a person', () => {
    expect(worthStoring(commentTrigger, comment('  /fix the total'), self)).toBe(true);
    expect(worthStoring(commentTrigger, comment('Thanks! I will /fix this later.'), self)).toBe(false);
    expect(worthStoring(commentTrigger, comment('/fix', bot), self)).toBe(false);
    // The comment's author counts, not only the delivery's sender.
    expect(worthStoring(commentTrigger, { ...comment('/fix'), comment: { id: 9, body: '/fix', user: bot } }, self)).toBe(false);
  });

  it('a review only when it requests changes', () => {
    const review = (state: string) => ({
      repository,
      pull_request: { number: 7, head: { ref: 'fixloop/1-abc' } },
      review: { state, body: 'also 0' },
      sender: user,
    });
    expect(worthStoring(reviewTrigger, review('changes_requested'), self)).toBe(true);
    expect(worthStoring(reviewTrigger, review('approved'), self)).toBe(false);
  });

  it("a failed or timed-out check suite on a pull request, never fixloop's own", () => {
    expect(worthStoring(checkSuiteTrigger, suite(), self)).toBe(true);
    expect(worthStoring(checkSuiteTrigger, suite({ conclusion: 'timed_out' }), self)).toBe(true);
    expect(worthStoring(checkSuiteTrigger, suite({ conclusion: 'success' }), self)).toBe(false);
    expect(worthStoring(checkSuiteTrigger, suite({ pull_requests: [] }), self)).toBe(false);
    expect(worthStoring(checkSuiteTrigger, suite({ app: { id: 42, name: 'fixloop' } }), self)).toBe(false);
    expect(worthStoring(checkSuiteTrigger, suite({ app: { id: 42, name: 'fixloop' } }), { appId: undefined })).toBe(true);
    expect(worthStoring(checkSuiteTrigger, { ...suite(), sender: bot }, self)).toBe(false);
  });

  it('a failed workflow run on a pull request', () => {
    expect(worthStoring(workflowRunTrigger, run(), self)).toBe(true);
    expect(worthStoring(workflowRunTrigger, run({ conclusion: 'cancelled' }), self)).toBe(false);
    expect(worthStoring(workflowRunTrigger, run({ pull_requests: [] }), self)).toBe(false);
  });
});
