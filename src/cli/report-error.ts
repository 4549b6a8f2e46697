// Any error out of a command becomes one line on stderr and an exit code: a user's mistake names
// itself (exit 2), anything else is a system error with its code (exit 3). Never a stack trace.
import { CommanderError } from 'commander';
import { ConfigError } from '../config/config-error.ts';
import { ENGINE_NAMES } from '../core/repo-config.ts';
import { PostgresStoreError } from '../jobs/postgres/store-error.ts';
import { StoreError } from '../jobs/sqlite-store.ts';
import { describeError, errorCode, USER_ERROR_CODES } from '../loop/run-error.ts';
import { SandboxChoiceError } from '../sandbox/select-sandbox.ts';
import type { CliIo } from './command-context.ts';
import { EXIT } from './exit-codes.ts';
import { UsageError } from './usage-error.ts';

export function reportError(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help')
      return EXIT.ok;
    let message = error.message.replace(/^error: /, '');
    if (/--engine/.test(message)) message += `; the engines are: ${ENGINE_NAMES.join(', ')}`;
    io.stderr(`fixloop: ${message}\nRun \`fixloop --help\` for usage.\n`);
    return EXIT.usage;
  }
  if (isUsersMistake(error)) {
    io.stderr(`fixloop: ${describeError(error)}\n`);
    return EXIT.usage;
  }
  io.stderr(`fixloop: system error (${errorCode(error)}): ${describeError(error)}\n`);
  return EXIT.system;
}

function isUsersMistake(error: unknown): boolean {
  return (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof SandboxChoiceError ||
    error instanceof StoreError ||
    error instanceof PostgresStoreError ||
    USER_ERROR_CODES.has(errorCode(error))
  );
}
