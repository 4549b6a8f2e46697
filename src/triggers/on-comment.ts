// `/fix …` on an issue or a pull request: the slash command's dispatch (fix, retry, status, cancel,
// help). Only the first line counts; most comments are not for fixloop and get no answer.
import type { RepoConfig } from '../core/repo-config.ts';
import { statusAnswer } from '../forge/messages.ts';
import { runJobData } from '../forge/run-job-data.ts';
import { runKey } from '../forge/run-plan.ts';
import type { CommentEvent } from './forge-events.ts';
import { cancelRun } from './cancel-run.ts';
import { mayAsk } from './may-ask.ts';
import { planForIssue, planForPullRequest } from './run-plans.ts';
import { helpText, parseSlashCommand, type SlashCommand } from './slash-command.ts';
import type { Trigger } from './trigger.ts';
import type { TriggerDeps } from './trigger-deps.ts';

const DEFAULT_COMMAND = '/fix';

export const commentTrigger: Trigger<CommentEvent> = { name: 'comment', handle: (event, deps) => onComment(event, deps) };

export async function onComment(event: CommentEvent, deps: TriggerDeps): Promise<void> {
  const number = event.subject.number;
  const config = await deps.config(parseSlashCommand(event.comment.text, DEFAULT_COMMAND) ? number : null);
  if (!config) return;
  const command = parseSlashCommand(event.comment.text, config.triggers.command);
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
      return cancelRun(deps, config, number, event.requester);
    case 'fix':
    case 'retry':
      return fix(event, deps, config, command, key);
  }
}

async function fix(
  event: CommentEvent,
  deps: TriggerDeps,
  config: RepoConfig,
  command: Extract<SlashCommand, { kind: 'fix' | 'retry' }>,
  key: string,
): Promise<void> {
  const number = event.subject.number;
  if (!(await mayAsk(deps.forge, deps.log, event.requester, number, config))) return;
  // `retry` repeats the last run's instructions, as stored: it survives restarts.
  const instructions = command.kind === 'retry' ? await lastInstructions(deps, key) : command.instructions;
  const base = {
    repository: event.repository,
    actor: event.requester,
    deliveryId: event.deliveryId,
    instructions,
    commentId: event.comment.id,
  };
  const plan = event.subject.isChangeRequest
    ? planForPullRequest({
        ...base,
        pr: await deps.forge.pullRequest(number),
        kind: 'command',
        branchPrefix: config.pr.branchPrefix,
      })
    : planForIssue({ ...base, issue: event.subject, kind: 'command' });
  await deps.service.start(plan, config);
}

/** The instructions of the issue's last run, as stored. */
async function lastInstructions(deps: TriggerDeps, key: string): Promise<string> {
  const last = await deps.queue.lastRun(key);
  return last ? runJobData(last).plan.instructions : '';
}
