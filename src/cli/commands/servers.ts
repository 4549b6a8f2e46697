// The long-running commands: `serve` (the GitHub App) and `worker` (scale-out). They handle SIGINT and
// SIGTERM themselves, to drain their jobs. Their modules (Probot, the stores) load only when one of
// them runs: every other command starts without them.
import type { Command } from 'commander';
import type { CommandContext } from '../command-context.ts';

export function registerServerCommands(program: Command, context: CommandContext): void {
  program
    .command('worker')
    .description(
      'Handle deliveries and runs from the shared run store (DATABASE_URL), with no web server; scale out with several.',
    )
    .action(async () => {
      context.releaseSignals();
      const { workerCommand } = await import('../worker-command.ts');
      await workerCommand();
    });

  program
    .command('serve')
    .description(
      'Start the GitHub App (Probot). Settings come from the environment or .env: APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, GHE_HOST, FIXLOOP_DATA_DIR, FIXLOOP_CONCURRENCY.',
    )
    .option('--register', "no App yet: serve Probot's page that registers one from app.yml and writes its credentials to .env")
    .action(async (flags: { register?: boolean }) => {
      context.releaseSignals();
      const { serveCommand } = await import('../serve-command.ts');
      await serveCommand({ register: flags.register === true });
    });
}
