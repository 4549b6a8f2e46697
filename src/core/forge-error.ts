// A forge's failures, typed (docs/design.md §4.4): each adapter maps its own (HTTP statuses, network
// errors) to these stable codes, and publication decides on the code, never on a message's words.
import { CodedError } from './coded-error.ts';

export type ForgeErrorCode =
  /** The repository, issue, comment or branch is not there (or not visible to fixloop). */
  | 'not_found'
  /** fixloop's credentials do not allow it (a missing permission, a protected branch, a revoked installation). */
  | 'forbidden'
  /** The request clashes with the repository's state (a pull request already open, a validation refused). */
  | 'conflict'
  /** The forge asks fixloop to slow down: worth trying again later. */
  | 'rate_limited'
  /** The forge did not answer, or answered with its own failure: worth trying again later. */
  | 'unavailable'
  /** Anything else. */
  | 'unknown';

export const FORGE_ERROR_CODES: readonly ForgeErrorCode[] = [
  'not_found',
  'forbidden',
  'conflict',
  'rate_limited',
  'unavailable',
  'unknown',
];

export class ForgeError extends CodedError<ForgeErrorCode> {
  /** When the forge said when to come back (a rate limit's reset), in ms from now. */
  readonly retryAfterMs: number | null;

  constructor(code: ForgeErrorCode, message: string, options: { retryAfterMs?: number | null; cause?: unknown } = {}) {
    super(code, message);
    this.retryAfterMs = options.retryAfterMs ?? null;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/** A failure that may pass by itself: the same request later can succeed. */
export function isTransient(error: unknown): error is ForgeError {
  return error instanceof ForgeError && (error.code === 'rate_limited' || error.code === 'unavailable');
}

export function forgeErrorCode(error: unknown): ForgeErrorCode | null {
  return error instanceof ForgeError ? error.code : null;
}
