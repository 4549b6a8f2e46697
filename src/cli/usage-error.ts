/** A mistake in the command line: exit code 2, the message names the flag or argument. */
export class UsageError extends Error {
  readonly code = 'USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
