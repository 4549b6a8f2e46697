import type { RunResult } from '../core/run-result.ts';
import { USER_ERROR_CODES } from '../loop/run-error.ts';

export const EXIT = { ok: 0, notFixed: 1, usage: 2, system: 3 } as const;

export function exitCodeFor(result: RunResult): number {
  switch (result.status) {
    case 'tests_green':
    case 'nothing_to_fix':
      return EXIT.ok;
    case 'failed_to_green':
    case 'escalated':
      return EXIT.notFixed;
    case 'error':
      return result.error && USER_ERROR_CODES.has(result.error.code) ? EXIT.usage : EXIT.system;
  }
}
