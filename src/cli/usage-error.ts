import { CodedError } from '../core/coded-error.ts';

/** A mistake in the command line: exit code 2, the message names the flag or argument. */
export class UsageError extends CodedError<'USAGE'> {
  constructor(message: string) {
    super('USAGE', message);
  }
}
