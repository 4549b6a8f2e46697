import { CodedError } from '../core/coded-error.ts';

/** A configuration problem a person can fix: the message names the file, the key and the reason. */
export class ConfigError extends CodedError<'CONFIG_INVALID'> {
  /** Dotted key path of the offending setting, when known (e.g. `loop.maxAttempts`). */
  readonly key: string | null;
  constructor(message: string, key: string | null = null) {
    super('CONFIG_INVALID', message);
    this.key = key;
  }
}
