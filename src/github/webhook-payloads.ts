// The fields of GitHub's webhook payloads that fixloop reads, per event. The adapter checks each
// against GitHub's own webhook types at compile time (webhook-trigger.ts), and turns them into the
// triggers' neutral events (github-events.ts).

/** What every payload says of its sender: bots, fixloop included, never start anything. */
export interface SentBy {
  sender?: { login?: string; type?: string } | null;
}

export interface RepositoryFields {
  name: string;
  owner: { login: string };
  clone_url: string;
  default_branch: string;
}

export interface IssueFields {
  number: number;
  title: string;
  body?: string | null;
  pull_request?: unknown;
}

/** `issues.labeled` */
export interface LabelPayload {
  repository: RepositoryFields;
  issue: IssueFields;
  label?: { name: string } | null;
  sender: { login: string; type?: string };
}

/** `issues.assigned` and `issues.unassigned` */
export interface AssignmentPayload {
  repository: RepositoryFields;
  issue: IssueFields;
  assignee?: { login: string } | null;
  sender: { login: string; type?: string };
}

/** `issue_comment.created` */
export interface CommentPayload {
  repository: RepositoryFields;
  issue: IssueFields;
  comment: { id: number; body: string; user: { type?: string } | null };
  sender: { login: string; type?: string };
}

/** `pull_request_review.submitted` */
export interface ReviewPayload {
  repository: RepositoryFields;
  pull_request: { number: number; head: { ref: string } };
  review: { state: string; body: string | null };
  sender: { login: string; type?: string };
}

/** What a check suite and a workflow run both say of their outcome. */
export interface CheckOutcome {
  conclusion: string | null;
  head_sha: string;
  pull_requests: ({ number: number } | null)[];
}

/** `check_suite.completed` */
export interface CheckSuitePayload {
  repository: RepositoryFields;
  check_suite: CheckOutcome & { id: number; app: { id?: number | null; name?: string; slug?: string } | null };
  sender?: { login: string; type?: string } | null;
}

/** `workflow_run.completed` */
export interface WorkflowRunPayload {
  repository: RepositoryFields;
  workflow_run: CheckOutcome & { id: number; name?: string | null; path?: string };
  sender?: { login: string; type?: string } | null;
}
