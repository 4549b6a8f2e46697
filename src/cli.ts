// fixloop's command line. Returns the exit code; never throws a user's mistake. Each command's flags
// live with the command (src/cli/commands/); this file builds the program and maps errors to codes.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { CliIo, CommandContext } from './cli/command-context.ts';
import { registerActionCommand } from './cli/commands/action.ts';
import { registerRunCommand } from './cli/commands/run.ts';
import { registerServerCommands } from './cli/commands/servers.ts';
import { registerStoredRunCommands } from './cli/commands/stored-runs.ts';
import { EXIT } from './cli/exit-codes.ts';
import { cancelOnSignals, signalExitCode } from './cli/cancel-signals.ts';
import { reportError } from './cli/report-error.ts';

export type { CliIo } from './cli/command-context.ts';

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const cancel = cancelOnSignals();
  const releaseSignals = cancel.release;
  const context: CommandContext = { io, signal: cancel.signal, setExitCode: (code) => (exitCode = code), releaseSignals };

  const program = new Command('fixloop')
    .description(
      'Turns red tests green and proves it: a bounded fix loop judged by the test suite, replayed on a pristine checkout.',
    )
    .version(packageVersion(), '-V, --version', "print fixloop's version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: () => undefined })
    .showHelpAfterError(false);
  registerRunCommand(program, context);
  registerStoredRunCommands(program, context);
  registerServerCommands(program, context);
  registerActionCommand(program, context);

  try {
    await program.parseAsync(argv, { from: 'user' });
    // A run cancelled by SIGTERM or SIGHUP exits as that signal would have ended it (exit-codes.ts).
    const signal = cancel.received();
    return exitCode === EXIT.cancelled && signal ? signalExitCode(signal) : exitCode;
  } catch (error) {
    return reportError(error, io);
  } finally {
    releaseSignals();
  }
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}
