// A review that requests changes on fixloop's own pull request: a new commit on its branch, with the
// review's text as instructions. Fork branches are not fixloop's to push to.
import type { RepositoryFields } from './github-events.ts';
import { planForPullRequest } from './github-events.ts';
import { mayAsk } from './may-ask.ts';
import type { Trigger } from './trigger.ts';
import type { TriggerDeps } from './trigger-deps.ts';

/** The fields of `pull_request_review.submitted` read here. */
export interface ReviewPayload {
  repository: RepositoryFields;
  pull_request: { number: number; head: { ref: string } };
  review: { state: string; body: string | null };
  sender: { login: string; type?: string };
}

export interface ReviewEvent {
  deliveryId: string;
  repository: RepositoryFields;
  pullRequest: { number: number; headRef: string };
  reviewBody: string;
  sender: string;
}

export const reviewTrigger: Trigger<'pull_request_review.submitted', ReviewPayload> = {
  event: 'pull_request_review.submitted',
  concerns: (payload) => payload.review.state === 'changes_requested',
  handle: ({ id, payload }, deps) =>
    onReview({ deliveryId: id, repository: payload.repository, pullRequest: { number: payload.pull_request.number, headRef: payload.pull_request.head.ref }, reviewBody: payload.review.body ?? '', sender: payload.sender.login }, deps),
};

export async function onReview(event: ReviewEvent, deps: TriggerDeps): Promise<void> {
  const config = await deps.config(null);
  if (!config || !event.pullRequest.headRef.startsWith(config.pr.branchPrefix)) return;
  const pr = await deps.forge.pullRequest(event.pullRequest.number);
  if (pr.fromFork) return;
  if (!(await mayAsk(deps.forge, deps.log, event.sender, pr.number, config))) return;
  const plan = planForPullRequest({ repository: event.repository, pr, kind: 'review', instructions: event.reviewBody, commentId: null, actor: event.sender, deliveryId: event.deliveryId, branchPrefix: config.pr.branchPrefix });
  await deps.service.start(plan, config);
}
