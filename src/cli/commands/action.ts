// `fixloop action`: the GitHub Action's entry (action.yml). Its settings come from the runner's
// environment, not from flags: the workflow's inputs arrive as variables.
import type { Command } from 'commander';
import { actionCommand } from '../action/action-command.ts';
import type { CommandContext } from '../command-context.ts';

export function registerActionCommand(program: Command, context: CommandContext): void {
  program
    .command('action')
    .description('Handle one GitHub Actions event (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, ...) as the App would, running the fix in this process; see docs/github-action.md.')
    .action(async () => {
      context.setExitCode(await actionCommand({ env: process.env, io: context.io, signal: context.signal }));
    });
}
