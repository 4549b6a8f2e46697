// An issue assigned to fixloop's assignee (`triggers.assignee`) starts a run as the label does, under
// the same rules: who assigned it must be allowed to ask, and one run per issue. Unassigning it
// cancels the issue's queued or running run, as `/fix cancel` does. An assignment to anyone else is
// none of fixloop's business and gets no answer.
import type { AssignmentEvent } from './forge-events.ts';
import { cancelRun } from './cancel-run.ts';
import { mayAsk } from './may-ask.ts';
import { planForIssue } from './run-plans.ts';
import type { Trigger } from './trigger.ts';
import type { TriggerDeps } from './trigger-deps.ts';

export const assignmentTrigger: Trigger<AssignmentEvent> = { name: 'assign', handle: (event, deps) => onAssignment(event, deps) };

export async function onAssignment(event: AssignmentEvent, deps: TriggerDeps): Promise<void> {
  // No reply on a bad config: most assignments are not fixloop's, and which one is lives in that config.
  const config = await deps.config(null);
  const assignee = config?.triggers.assignee;
  if (!config || !assignee || assignee.toLowerCase() !== event.assignee.toLowerCase()) return;
  // A pull request's assignee is who reviews or merges it, not a request for a fix.
  if (event.subject.isChangeRequest) return;
  if (!event.assigned) return cancelRun(deps, config, event.subject.number, event.requester);
  if (!(await mayAsk(deps.forge, deps.log, event.requester, event.subject.number, config))) return;
  const plan = planForIssue({
    repository: event.repository,
    issue: event.subject,
    kind: 'assign',
    instructions: '',
    commentId: null,
    actor: event.requester,
    deliveryId: event.deliveryId,
  });
  await deps.service.start(plan, config);
}
