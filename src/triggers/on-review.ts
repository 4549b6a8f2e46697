// A review that requests changes on fixloop's own pull request: a new commit on its branch, with the
// review's text as instructions. Fork branches are not fixloop's to push to.
import type { ReviewEvent } from './forge-events.ts';
import { mayAsk } from './may-ask.ts';
import { planForPullRequest } from './run-plans.ts';
import type { Trigger } from './trigger.ts';
import type { TriggerDeps } from './trigger-deps.ts';

export const reviewTrigger: Trigger<ReviewEvent> = { name: 'review', handle: (event, deps) => onReview(event, deps) };

export async function onReview(event: ReviewEvent, deps: TriggerDeps): Promise<void> {
  const config = await deps.config(null);
  if (!config || !event.changeRequest.headRef.startsWith(config.pr.branchPrefix)) return;
  const pr = await deps.forge.pullRequest(event.changeRequest.number);
  if (pr.fromFork) return;
  if (!(await mayAsk(deps.forge, deps.log, event.requester, pr.number, config))) return;
  const plan = planForPullRequest({
    repository: event.repository,
    pr,
    kind: 'review',
    instructions: event.text,
    commentId: null,
    actor: event.requester,
    deliveryId: event.deliveryId,
    branchPrefix: config.pr.branchPrefix,
  });
  await deps.service.start(plan, config);
}
