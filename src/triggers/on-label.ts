// A labeled issue: the configured label (default `fixloop`) starts a run on the default branch.
import type { RepositoryFields, IssueFields } from './github-events.ts';
import { planForIssue } from './github-events.ts';
import { mayAsk } from './may-ask.ts';
import type { Trigger } from './trigger.ts';
import type { TriggerDeps } from './trigger-deps.ts';

/** The fields of `issues.labeled` read here. */
export interface LabelPayload {
  repository: RepositoryFields;
  issue: IssueFields;
  label?: { name: string } | null;
  sender: { login: string; type?: string };
}

export interface LabelEvent {
  deliveryId: string;
  repository: RepositoryFields;
  issue: IssueFields;
  label: string;
  sender: string;
}

/** The default label: a bad config is answered only when the label was clearly fixloop's. */
const DEFAULT_LABEL = 'fixloop';

export const labelTrigger: Trigger<'issues.labeled', LabelPayload> = {
  event: 'issues.labeled',
  concerns: (payload) => Boolean(payload.label),
  handle: ({ id, payload }, deps) => onLabel({ deliveryId: id, repository: payload.repository, issue: payload.issue, label: payload.label?.name ?? '', sender: payload.sender.login }, deps),
};

export async function onLabel(event: LabelEvent, deps: TriggerDeps): Promise<void> {
  const config = await deps.config(event.label === DEFAULT_LABEL ? event.issue.number : null);
  if (!config || event.label !== config.triggers.label) return;
  if (!(await mayAsk(deps.forge, deps.log, event.sender, event.issue.number, config))) return;
  const plan = planForIssue({ repository: event.repository, issue: event.issue, kind: 'label', instructions: '', commentId: null, actor: event.sender, deliveryId: event.deliveryId });
  await deps.service.start(plan, config);
}
