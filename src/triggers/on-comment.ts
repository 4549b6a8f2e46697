// `/fix …` on an issue or a pull request: the slash command's dispatch (fix, retry, status, cancel,
// help). Only the first line counts; most comments are not for fixloop and get no answer.
import type { RepoConfig } from '../core/repo-config.ts';
import { statusAnswer } from '../forge/messages.ts';
import { runJobData } from '../forge/run-job-data.ts';
import { runKey } from '../forge/run-plan.ts';
import type { IssueFields, RepositoryFields } from './github-events.ts';
import { planForIssue, planForPullRequest } from './github-events.ts';
import { mayAsk } from './may-ask.ts';
import { helpText, parseSlashCommand, type SlashCommand } from './slash-command.ts';
import type { Trigger } from './trigger.ts';
import type { TriggerDeps } from './trigger-deps.ts';

/** The fields of `issue_comment.created` read here. */
export interface CommentPayload {
  repository: RepositoryFields;
  issue: IssueFields;
  comment: { id: number; body: string; user: { type?: string } | null };
  sender: { login: string; type?: string };
}

export interface CommentEvent {
  deliveryId: string;
  repository: RepositoryFields;
  issue: IssueFields;
  comment: { id: number; body: string };
  sender: string;
}

const DEFAULT_COMMAND = '/fix';

export const commentTrigger: Trigger<'issue_comment.created', CommentPayload> = {
  event: 'issue_comment.created',
  // Most comments are not for fixloop: only those that start with a slash can be a command. The body's
  // type is checked anyway: a payload without one must not fail the intake.
  concerns: ({ comment }) => comment.user?.type !== 'Bot' && typeof comment.body === 'string' && comment.body.trimStart().startsWith('/'),
  handle: ({ id, payload }, deps) =>
    onComment({ deliveryId: id, repository: payload.repository, issue: payload.issue, comment: { id: payload.comment.id, body: payload.comment.body }, sender: payload.sender.login }, deps),
};

export async function onComment(event: CommentEvent, deps: TriggerDeps): Promise<void> {
  const number = event.issue.number;
  const config = await deps.config(parseSlashCommand(event.comment.body, DEFAULT_COMMAND) ? number : null);
  if (!config) return;
  const command = parseSlashCommand(event.comment.body, config.triggers.command);
  if (!command) return;
  const key = runKey({ owner: deps.forge.owner, repo: deps.forge.repo, number });
  switch (command.kind) {
    case 'help': {
      const prefix = command.unknown ? `\`${config.triggers.command} ${command.unknown}\` is not a command.\n\n` : '';
      await deps.forge.comment(number, prefix + helpText(config.triggers.command, config.triggers.label));
      return;
    }
    case 'status':
      await deps.forge.comment(number, statusAnswer(await deps.queue.status(key)));
      return;
    case 'cancel':
      return cancel(event, deps, config, key);
    case 'fix':
    case 'retry':
      return fix(event, deps, config, command, key);
  }
}

async function cancel(event: CommentEvent, deps: TriggerDeps, config: RepoConfig, key: string): Promise<void> {
  const number = event.issue.number;
  if (!(await mayAsk(deps.forge, deps.log, event.sender, number, config))) return;
  const info = await deps.queue.cancel(key, event.sender);
  deps.log.info({ key, actor: event.sender, runId: info?.runId }, 'cancel requested');
  await deps.forge.comment(number, info ? `🛑 Cancelling run \`${info.runId}\` (asked by @${event.sender}).` : 'No **fixloop** run is active here: nothing to cancel.');
}

async function fix(event: CommentEvent, deps: TriggerDeps, config: RepoConfig, command: Extract<SlashCommand, { kind: 'fix' | 'retry' }>, key: string): Promise<void> {
  const number = event.issue.number;
  if (!(await mayAsk(deps.forge, deps.log, event.sender, number, config))) return;
  // `retry` repeats the last run's instructions, as stored: it survives restarts.
  const instructions = command.kind === 'retry' ? await lastInstructions(deps, key) : command.instructions;
  const base = { repository: event.repository, actor: event.sender, deliveryId: event.deliveryId, instructions, commentId: event.comment.id };
  const plan = event.issue.pull_request
    ? planForPullRequest({ ...base, pr: await deps.forge.pullRequest(number), kind: 'command', branchPrefix: config.pr.branchPrefix })
    : planForIssue({ ...base, issue: event.issue, kind: 'command' });
  await deps.service.start(plan, config);
}

/** The instructions of the issue's last run, as stored. */
async function lastInstructions(deps: TriggerDeps, key: string): Promise<string> {
  const last = await deps.queue.lastRun(key);
  return last ? runJobData(last).plan.instructions : '';
}
