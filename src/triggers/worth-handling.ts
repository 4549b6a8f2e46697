// Whether a delivery can concern fixloop, from its payload alone (no API call): only those are
// stored. Bots, fixloop included, never start anything; most comments are not commands.

export const HANDLED_EVENTS = ['issues.labeled', 'issue_comment.created', 'pull_request_review.submitted', 'check_suite.completed', 'workflow_run.completed'] as const;
export type HandledEvent = (typeof HANDLED_EVENTS)[number];

const FAILED_CONCLUSIONS = new Set(['failure', 'timed_out']);

/** The few payload fields the filter reads; every one optional, because payloads are read defensively. */
interface PayloadFields {
  sender?: { type?: string } | null;
  label?: unknown;
  comment?: { body?: unknown; user?: { type?: string } | null } | null;
  review?: { state?: string } | null;
  check_suite?: { conclusion?: string | null; pull_requests?: unknown[] | null; app?: { id?: number } | null } | null;
  workflow_run?: { conclusion?: string | null; pull_requests?: unknown[] | null } | null;
}

export function worthHandling(name: HandledEvent, rawPayload: unknown, appId: number | undefined): boolean {
  const payload = (rawPayload ?? {}) as PayloadFields;
  if (payload.sender?.type === 'Bot') return false;
  switch (name) {
    case 'issues.labeled':
      return Boolean(payload.label);
    case 'issue_comment.created': {
      const body = payload.comment?.body;
      return payload.comment?.user?.type !== 'Bot' && typeof body === 'string' && body.trimStart().startsWith('/');
    }
    case 'pull_request_review.submitted':
      return payload.review?.state === 'changes_requested';
    case 'check_suite.completed': {
      const suite = payload.check_suite;
      // fixloop's own failed check run must never start another run.
      return failedWithPullRequests(suite) && !(appId !== undefined && suite?.app?.id === appId);
    }
    case 'workflow_run.completed':
      return failedWithPullRequests(payload.workflow_run);
  }
}

function failedWithPullRequests(run: { conclusion?: string | null; pull_requests?: unknown[] | null } | null | undefined): boolean {
  return FAILED_CONCLUSIONS.has(run?.conclusion ?? '') && (run?.pull_requests?.length ?? 0) > 0;
}
