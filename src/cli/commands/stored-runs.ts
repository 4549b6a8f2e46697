// The commands over the App's stored runs: `runs`, `runs show`, `replay`, `publish`. What each one
// needs (the store, the GitHub client, the loop) loads when it runs, not at every start.
import type { Command } from 'commander';
import { SANDBOX_CHOICES } from '../../sandbox/select-sandbox.ts';
import type { CommandContext } from '../command-context.ts';
import { positiveInteger } from '../parse-values.ts';
import { sandboxChoice } from './run.ts';

export function registerStoredRunCommands(program: Command, context: CommandContext): void {
  const { io } = context;
  const runs = program
    .command('runs')
    .description(
      "Recent runs: the GitHub App's, from its run store (FIXLOOP_DATA_DIR, default .fixloop), and the command line's, from fixloop's data folder (FIXLOOP_DATA_DIR, else ~/.local/share/fixloop): this repository's, or all of them.",
    )
    .option('--limit <n>', 'how many', '20')
    .action(async (flags: { limit: string }) => {
      const { runsList } = await import('../runs-command.ts');
      await runsList({ stdout: io.stdout }, positiveInteger('--limit', flags.limit));
    });
  runs
    .command('show')
    .description('One run: its state, audit trail and report.')
    .argument('<run-id>', 'as listed by `fixloop runs`')
    .action(async (runId: string) => {
      const { runsShow } = await import('../runs-command.ts');
      await runsShow({ stdout: io.stdout }, runId);
    });

  program
    .command('replay')
    .description('Verify again, on a fresh clone, the patch an App run stored (FIXLOOP_DATA_DIR).')
    .argument('<run-id>', 'as listed by `fixloop runs`')
    .option('--sandbox <backend>', `isolation: ${SANDBOX_CHOICES.join(', ')}`)
    .option('--no-setup-network', 'run the setup command without network access')
    .action(async (runId: string, flags: { sandbox?: string; setupNetwork: boolean }) => {
      const { selectSandbox } = await import('../../sandbox/select-sandbox.ts');
      const { cacheRootFrom } = await import('../../core/data-dir.ts');
      const { appAccessFromEnvironment, hasAppCredentials } = await import('../app-credentials.ts');
      const { replayRun } = await import('../replay-command.ts');
      const { dataDirFrom, openStoredRun } = await import('../stored-run.ts');
      const dataDir = dataDirFrom(process.env);
      const { sandbox, warning } = selectSandbox(sandboxChoice(flags.sandbox));
      if (warning) io.stderr(`fixloop: warning: ${warning}\n`);
      // A private repository on GitHub needs the App's token; a local or public one does not.
      let auth;
      if (hasAppCredentials(process.env)) {
        const peek = await openStoredRun(dataDir, runId);
        await peek.store.close();
        auth = await (await appAccessFromEnvironment()).cloneAuthFor(peek.data);
      }
      // The App's dependency cache (FIXLOOP_CACHE_DIR, else the data folder's): the run's saved trees serve its replay.
      const cacheDir = cacheRootFrom(process.env, dataDir);
      context.setExitCode(
        await replayRun({
          dataDir,
          runId,
          sandbox,
          setupNetwork: flags.setupNetwork,
          cacheDir,
          stdout: io.stdout,
          stderr: io.stderr,
          signal: context.signal,
          ...(auth ? { auth } : {}),
        }),
      );
    });

  program
    .command('publish')
    .description('Publish again the verified patch of an App run whose publication failed (needs the App credentials).')
    .argument('<run-id>', 'as listed by `fixloop runs`')
    .action(async (runId: string) => {
      const { appAccessFromEnvironment } = await import('../app-credentials.ts');
      const { publishRun } = await import('../publish-command.ts');
      const { dataDirFrom } = await import('../stored-run.ts');
      const access = await appAccessFromEnvironment();
      await publishRun({
        dataDir: dataDirFrom(process.env),
        runId,
        forgeFor: (data) => access.forgeFor(data),
        stdout: io.stdout,
      });
    });
}
