import { CodedError } from '../core/coded-error.ts';

// Maps errors from any stage to a stable code and a message a person can act on.

/** Error codes that mean the user asked for something wrong (exit code 2 on the CLI). */
export const USER_ERROR_CODES = new Set([
  'CONFIG_INVALID',
  'USAGE',
  'REPO_NOT_FOUND',
  'BASE_REF_NOT_FOUND',
  'REPORT_PATH_REFUSED',
  'ENGINE_UNKNOWN',
  'ENGINE_MISCONFIGURED',
  'TEST_COMMAND_IS_A_CHECK',
]);

/** A run-level failure with a stable code (e.g. `BASE_REF_NOT_FOUND`). */
export class RunError extends CodedError {}

export function errorCode(error: unknown): string {
  if (
    error &&
    typeof error === 'object' &&
    'code' in error &&
    typeof error.code === 'string' &&
    /^[A-Z][A-Z0-9_]+$/.test(error.code)
  ) {
    return error.code;
  }
  return 'INTERNAL';
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return errorCode(error) === 'INTERNAL' ? `${error.name}: ${error.message}` : error.message;
  return String(error);
}
