// GitHub's webhooks bound to the triggers: for each, the event it answers, the cheap payload-only
// filter of what is worth storing, and the payload as the trigger's neutral event
// (src/triggers/forge-events.ts). The only place that knows these payloads' field names.
import type {
  AssignmentEvent,
  CommentEvent,
  FailingCheckEvent,
  LabelEvent,
  RepositoryRef,
  ReviewEvent,
  Subject,
} from '../triggers/forge-events.ts';
import { assignmentTrigger } from '../triggers/on-assign.ts';
import { commentTrigger } from '../triggers/on-comment.ts';
import { failingCheckTrigger } from '../triggers/on-failing-check.ts';
import { failingCheckSource } from './failing-step.ts';
import { labelTrigger } from '../triggers/on-label.ts';
import { reviewTrigger } from '../triggers/on-review.ts';
import type {
  AssignmentPayload,
  CheckOutcome,
  CheckSuitePayload,
  CommentPayload,
  IssueFields,
  LabelPayload,
  RepositoryFields,
  ReviewPayload,
  WorkflowRunPayload,
} from './webhook-payloads.ts';
import type { GitHubTrigger, Self } from './webhook-trigger.ts';

const FAILED_CONCLUSIONS = new Set(['failure', 'timed_out']);

export const labelOnGitHub = {
  event: 'issues.labeled',
  trigger: labelTrigger,
  concerns: (payload: LabelPayload) => Boolean(payload.label),
  toEvent: (deliveryId: string, payload: LabelPayload) => ({
    deliveryId,
    repository: repositoryRef(payload.repository),
    subject: subjectOf(payload.issue),
    label: payload.label?.name ?? '',
    requester: payload.sender.login,
  }),
} satisfies GitHubTrigger<'issues.labeled', LabelPayload, LabelEvent>;

// Only an assignment with an assignee can be fixloop's; whether it is (`triggers.assignee`) is in the
// repository's config, which the trigger reads. Who assigned is the sender: a bot never starts a run.
const assignmentConcerns = (payload: AssignmentPayload) => Boolean(payload.assignee?.login) && !payload.issue.pull_request;

export const assignOnGitHub = {
  event: 'issues.assigned',
  trigger: assignmentTrigger,
  concerns: assignmentConcerns,
  toEvent: (deliveryId: string, payload: AssignmentPayload) => assignmentEvent(deliveryId, payload, true),
} satisfies GitHubTrigger<'issues.assigned', AssignmentPayload, AssignmentEvent>;

export const unassignOnGitHub = {
  event: 'issues.unassigned',
  trigger: assignmentTrigger,
  concerns: assignmentConcerns,
  toEvent: (deliveryId: string, payload: AssignmentPayload) => assignmentEvent(deliveryId, payload, false),
} satisfies GitHubTrigger<'issues.unassigned', AssignmentPayload, AssignmentEvent>;

export const commentOnGitHub = {
  event: 'issue_comment.created',
  trigger: commentTrigger,
  // Most comments are not for fixloop: only those that start with a slash can be a command. The body's
  // type is checked anyway: a payload without one must not fail the intake.
  concerns: ({ comment }: CommentPayload) =>
    comment.user?.type !== 'Bot' && typeof comment.body === 'string' && comment.body.trimStart().startsWith('/'),
  toEvent: (deliveryId: string, payload: CommentPayload) => ({
    deliveryId,
    repository: repositoryRef(payload.repository),
    subject: subjectOf(payload.issue),
    comment: { id: payload.comment.id, text: payload.comment.body },
    requester: payload.sender.login,
  }),
} satisfies GitHubTrigger<'issue_comment.created', CommentPayload, CommentEvent>;

export const reviewOnGitHub = {
  event: 'pull_request_review.submitted',
  trigger: reviewTrigger,
  concerns: (payload: ReviewPayload) => payload.review.state === 'changes_requested',
  toEvent: (deliveryId: string, payload: ReviewPayload) => ({
    deliveryId,
    repository: repositoryRef(payload.repository),
    changeRequest: { number: payload.pull_request.number, headRef: payload.pull_request.head.ref },
    text: payload.review.body ?? '',
    requester: payload.sender.login,
  }),
} satisfies GitHubTrigger<'pull_request_review.submitted', ReviewPayload, ReviewEvent>;

export const checkSuiteOnGitHub = {
  event: 'check_suite.completed',
  trigger: failingCheckTrigger,
  // fixloop's own failed check run must never start another run.
  concerns: ({ check_suite: suite }: CheckSuitePayload, self: Self) =>
    failedOnPullRequests(suite) && !(self.appId !== undefined && suite.app?.id === self.appId),
  toEvent: (deliveryId: string, payload: CheckSuitePayload) =>
    failingCheckEvent(
      deliveryId,
      payload,
      payload.check_suite,
      payload.check_suite.app?.name ?? 'check suite',
      // Only an Actions check suite's check runs are jobs whose steps a workflow file describes.
      payload.check_suite.app?.slug === 'github-actions' ? failingCheckSource('check-suite', payload.check_suite.id) : undefined,
    ),
} satisfies GitHubTrigger<'check_suite.completed', CheckSuitePayload, FailingCheckEvent>;

export const workflowRunOnGitHub = {
  event: 'workflow_run.completed',
  trigger: failingCheckTrigger,
  concerns: ({ workflow_run: run }: WorkflowRunPayload) => failedOnPullRequests(run),
  toEvent: (deliveryId: string, payload: WorkflowRunPayload) =>
    failingCheckEvent(
      deliveryId,
      payload,
      payload.workflow_run,
      payload.workflow_run.name ?? 'workflow',
      failingCheckSource('workflow-run', payload.workflow_run.id, payload.workflow_run.path),
    ),
} satisfies GitHubTrigger<'workflow_run.completed', WorkflowRunPayload, FailingCheckEvent>;

export function repositoryRef(fields: RepositoryFields): RepositoryRef {
  return { owner: fields.owner.login, name: fields.name, cloneUrl: fields.clone_url, defaultBranch: fields.default_branch };
}

/** An issue, or a pull request (GitHub gives a pull request's comments the shape of an issue's). */
export function subjectOf(issue: IssueFields): Subject {
  return { number: issue.number, title: issue.title, body: issue.body ?? '', isChangeRequest: Boolean(issue.pull_request) };
}

function assignmentEvent(deliveryId: string, payload: AssignmentPayload, assigned: boolean): AssignmentEvent {
  return {
    deliveryId,
    repository: repositoryRef(payload.repository),
    subject: subjectOf(payload.issue),
    assignee: payload.assignee?.login ?? '',
    assigned,
    requester: payload.sender.login,
  };
}

function failedOnPullRequests(outcome: CheckOutcome): boolean {
  return FAILED_CONCLUSIONS.has(outcome.conclusion ?? '') && outcome.pull_requests.length > 0;
}

function failingCheckEvent(
  deliveryId: string,
  payload: CheckSuitePayload | WorkflowRunPayload,
  outcome: CheckOutcome,
  checkName: string,
  source: string | undefined,
): FailingCheckEvent {
  return {
    deliveryId,
    repository: repositoryRef(payload.repository),
    headSha: outcome.head_sha,
    checkName,
    changeRequests: outcome.pull_requests.flatMap((p) => (p ? [p.number] : [])),
    requester: payload.sender?.login ?? null,
    ...(source ? { source } : {}),
  };
}
