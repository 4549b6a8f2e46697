// A labeled issue: the configured label (default `fixloop`) starts a run on the default branch.
import type { LabelEvent } from './forge-events.ts';
import { mayAsk } from './may-ask.ts';
import { planForIssue } from './run-plans.ts';
import type { Trigger } from './trigger.ts';
import type { TriggerDeps } from './trigger-deps.ts';

/** The default label: a bad config is answered only when the label was clearly fixloop's. */
const DEFAULT_LABEL = 'fixloop';

export const labelTrigger: Trigger<LabelEvent> = { name: 'label', handle: (event, deps) => onLabel(event, deps) };

export async function onLabel(event: LabelEvent, deps: TriggerDeps): Promise<void> {
  const config = await deps.config(event.label === DEFAULT_LABEL ? event.subject.number : null);
  if (!config || event.label !== config.triggers.label) return;
  if (!(await mayAsk(deps.forge, deps.log, event.requester, event.subject.number, config))) return;
  const plan = planForIssue({
    repository: event.repository,
    issue: event.subject,
    kind: 'label',
    instructions: '',
    commentId: null,
    actor: event.requester,
    deliveryId: event.deliveryId,
  });
  await deps.service.start(plan, config);
}
