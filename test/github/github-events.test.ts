// GitHub's payloads as the triggers' neutral events: GitHub's own example payloads in, events that
// name no GitHub field out.
import { describe, expect, it } from 'vitest';
import {
  assignOnGitHub,
  checkSuiteOnGitHub,
  commentOnGitHub,
  labelOnGitHub,
  reviewOnGitHub,
  unassignOnGitHub,
  workflowRunOnGitHub,
} from '../../src/github/github-events.ts';
import type {
  AssignmentPayload,
  CheckSuitePayload,
  CommentPayload,
  LabelPayload,
  ReviewPayload,
  WorkflowRunPayload,
} from '../../src/github/webhook-payloads.ts';
import { examplePayload, type Payload } from '../support/github-app-harness.ts';

const repository = {
  owner: 'Codertocat',
  name: 'Hello-World',
  cloneUrl: 'https://github.com/Codertocat/Hello-World.git',
  defaultBranch: 'master',
};

describe('GitHub payloads as neutral events', () => {
  it('a labeled issue', () => {
    const payload = examplePayload('issues', 'labeled') as LabelPayload;
    expect(labelOnGitHub.toEvent('d1', payload)).toEqual({
      deliveryId: 'd1',
      repository,
      label: payload.label?.name,
      requester: payload.sender.login,
      subject: {
        number: payload.issue.number,
        title: payload.issue.title,
        body: payload.issue.body ?? '',
        isChangeRequest: false,
      },
    });
  });

  it('an assigned and an unassigned issue: whom, and who did it', () => {
    for (const [binding, action, assigned] of [
      [assignOnGitHub, 'assigned', true],
      [unassignOnGitHub, 'unassigned', false],
    ] as const) {
      const payload = examplePayload('issues', action) as AssignmentPayload;
      expect(binding.toEvent('d1', payload)).toEqual({
        deliveryId: 'd1',
        repository,
        assignee: payload.assignee?.login,
        assigned,
        requester: payload.sender.login,
        subject: {
          number: payload.issue.number,
          title: payload.issue.title,
          body: payload.issue.body ?? '',
          isChangeRequest: false,
        },
      });
    }
  });

  it('a comment on an issue and on a pull request', () => {
    const onIssue = examplePayload('issue_comment', 'created', (p: Payload) => !p.issue.pull_request) as CommentPayload;
    expect(commentOnGitHub.toEvent('d2', onIssue)).toMatchObject({
      deliveryId: 'd2',
      repository,
      comment: { id: onIssue.comment.id, text: onIssue.comment.body },
      subject: { isChangeRequest: false },
    });
    // GitHub sends a pull request's comments as an issue's, with a `pull_request` link.
    const onPull = {
      ...onIssue,
      issue: { ...onIssue.issue, pull_request: { url: 'https://api.github.com/repos/Codertocat/Hello-World/pulls/1' } },
    };
    expect(commentOnGitHub.toEvent('d3', onPull).subject.isChangeRequest).toBe(true);
  });

  it('a review, with its text', () => {
    const payload = examplePayload('pull_request_review', 'submitted') as ReviewPayload;
    expect(reviewOnGitHub.toEvent('d4', payload)).toEqual({
      deliveryId: 'd4',
      repository: expect.objectContaining({ owner: 'Codertocat' }),
      text: payload.review.body ?? '',
      requester: payload.sender.login,
      changeRequest: { number: payload.pull_request.number, headRef: payload.pull_request.head.ref },
    });
  });

  it('a failing check suite and workflow run, with the pull requests on their head', () => {
    const suite = examplePayload(
      'check_suite',
      'completed',
      (p: Payload) => p.check_suite.pull_requests.length > 0,
    ) as CheckSuitePayload;
    expect(checkSuiteOnGitHub.toEvent('d5', suite)).toMatchObject({
      deliveryId: 'd5',
      headSha: suite.check_suite.head_sha,
      checkName: suite.check_suite.app?.name,
      changeRequests: suite.check_suite.pull_requests.map((p) => p?.number),
    });
    const run = examplePayload('workflow_run', 'completed') as WorkflowRunPayload;
    expect(workflowRunOnGitHub.toEvent('d6', run)).toMatchObject({
      deliveryId: 'd6',
      headSha: run.workflow_run.head_sha,
      checkName: run.workflow_run.name,
    });
  });
});
