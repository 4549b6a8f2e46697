// The events fixloop answers, one line each: a new trigger is a file in src/triggers/ and a line here.
// The App (src/app.ts) registers this list and the GitHub Action (src/cli/action/) answers its event
// from it, so both answer the same events under the same rules.
import { commentTrigger } from '../triggers/on-comment.ts';
import { checkSuiteTrigger, workflowRunTrigger } from '../triggers/on-failing-check.ts';
import { labelTrigger } from '../triggers/on-label.ts';
import { reviewTrigger } from '../triggers/on-review.ts';
import { onGitHub, type WebhookTrigger } from './webhook-trigger.ts';

export const TRIGGERS: readonly WebhookTrigger[] = [
  onGitHub(labelTrigger),
  onGitHub(commentTrigger),
  onGitHub(reviewTrigger),
  onGitHub(checkSuiteTrigger),
  onGitHub(workflowRunTrigger),
];
