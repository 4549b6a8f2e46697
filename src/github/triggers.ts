// The events fixloop answers on GitHub, one line each: a new trigger is a file in src/triggers/, its
// GitHub binding in github-events.ts, and a line here. The App (src/app.ts) and the GitHub Action
// (src/cli/action/) register the same list, so both answer the same events under the same rules.
import {
  assignOnGitHub,
  checkSuiteOnGitHub,
  commentOnGitHub,
  labelOnGitHub,
  reviewOnGitHub,
  unassignOnGitHub,
  workflowRunOnGitHub,
} from './github-events.ts';
import { onGitHub, type WebhookTrigger } from './webhook-trigger.ts';

export const TRIGGERS: readonly WebhookTrigger[] = [
  onGitHub(labelOnGitHub),
  onGitHub(assignOnGitHub),
  onGitHub(unassignOnGitHub),
  onGitHub(commentOnGitHub),
  onGitHub(reviewOnGitHub),
  onGitHub(checkSuiteOnGitHub),
  onGitHub(workflowRunOnGitHub),
];
