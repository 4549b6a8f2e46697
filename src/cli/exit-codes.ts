import type { RunResult } from '../core/run-result.ts';
import { needsReview } from '../core/assessment-level.ts';
import { USER_ERROR_CODES } from '../loop/run-error.ts';

/**
 * `review`: the tests pass (`tests_green`) but the assessment found what a person should look at
 * (docs/design.md §3.3), so a script can tell it from a `verified` fix (0) without reading the JSON.
 * `flaky`: the only failures were flaky tests (docs/design.md §3.2.8): nothing was repaired, and a
 * script can tell that from a fix (0) and from a failure fixloop could not fix (1).
 */
export const EXIT = { ok: 0, notFixed: 1, usage: 2, system: 3, review: 4, flaky: 5, cancelled: 130 } as const;

/**
 * A cancelled run exits as a shell reports a command ended by Ctrl-C: 130 (128 + SIGINT). `main`
 * makes it 128 + the signal's number when another signal cancelled it (143 for SIGTERM), so a
 * supervisor that sent SIGTERM reads the code it expects.
 */
export function exitCodeFor(result: RunResult): number {
  if (result.stopReason === 'cancelled') return EXIT.cancelled;
  switch (result.status) {
    case 'tests_green':
      return needsReview(result) ? EXIT.review : EXIT.ok;
    case 'nothing_to_fix':
      return EXIT.ok;
    case 'flaky':
      return EXIT.flaky;
    case 'failed_to_green':
    case 'escalated':
      return EXIT.notFixed;
    case 'error':
      return result.error && USER_ERROR_CODES.has(result.error.code) ? EXIT.usage : EXIT.system;
  }
}
