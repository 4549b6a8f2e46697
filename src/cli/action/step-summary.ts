// The step summary (GITHUB_STEP_SUMMARY): the run's report as on the pull request, which token was
// used and what that means for CI; or, when no run started, why, and what fixloop answered; or what
// kept the step from starting.
import type { TokenKind } from './action-env.ts';
import type { FinishedRun } from './run-started.ts';

export function runSummary(
  run: FinishedRun,
  pullRequestUrl: string,
  tokenKind: TokenKind,
  sandboxWarning: string | null,
): string {
  const lines = [`## fixloop run \`${run.data.runId}\` for #${run.data.plan.number}`, ''];
  if (pullRequestUrl) lines.push(`Pull request: ${pullRequestUrl}`, '');
  lines.push(tokenLine(tokenKind), '');
  if (sandboxWarning) lines.push(`> [!WARNING]\n> ${sandboxWarning}`, '');
  lines.push(run.report ?? `The run ended before its report: ${run.outcome.outcome}`);
  return lines.join('\n');
}

/**
 * No run: why not (the event is not fixloop's), or what fixloop answered on GitHub, or else what its
 * log said while it handled the event (the loop guard, an invalid .github/fixloop.yml).
 */
export function noRunSummary(event: string, reason: string | null, replies: string[], notes: string[]): string {
  const lines = [`## fixloop: no run for \`${event}\``, ''];
  if (reason) lines.push(reason);
  else if (replies.length > 0) lines.push('fixloop answered on GitHub:', '', ...replies.map(quote));
  else
    lines.push(
      "The event was handled and started no run: the label or command was not fixloop's, its settings say no, the pull request has moved on, or the loop guard stopped it.",
    );
  if (!reason && notes.length > 0) lines.push('', "fixloop's log said:", '', ...notes.map((n) => `- ${n}`));
  return lines.join('\n');
}

/** The step could not start (a runner variable, the event file, GitHub itself): what went wrong. */
export function failureSummary(message: string): string {
  return ['## fixloop: the event could not be handled', '', quote(message), '', "The step's log has the details."].join('\n');
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
}

function tokenLine(kind: TokenKind): string {
  return kind === 'workflow'
    ? "Token: the workflow's `GITHUB_TOKEN`. GitHub starts no workflows for its pushes, so the repository's CI does not run on fixloop's branch; give the action a GitHub App token when it must (docs/github-action.md)."
    : "Token: the one given as the `github-token` input (not the workflow's `GITHUB_TOKEN`): fixloop's pushes start the repository's workflows.";
}
