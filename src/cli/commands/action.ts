// `fixloop action`: the GitHub Action's entry (action.yml). Its settings come from the runner's
// environment, not from flags: the workflow's inputs arrive as variables.
import type { Command } from 'commander';
import type { CommandContext } from '../command-context.ts';

export function registerActionCommand(program: Command, context: CommandContext): void {
  program
    .command('action')
    .description(
      'Handle one GitHub Actions event (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, ...) as the App would, running the fix in this process; see docs/github-action.md.',
    )
    .action(async () => {
      // Loaded when the command runs: the Action's adapter and the GitHub client weigh on every start.
      const { actionCommand } = await import('../action/action-command.ts');
      context.setExitCode(await actionCommand({ env: process.env, io: context.io, signal: context.signal }));
    });
}
