// A failed test's error as a runner's guard recorded it (GuardTestCase), in a test's result: the
// message and the stack the runner's output may no longer hold (a quiet reporter prints neither).
import type { GuardTestCase } from '../core/guard-record.ts';
import type { TestCaseResult } from '../core/test-report.ts';

export function recordedFailure(recorded: GuardTestCase): Pick<TestCaseResult, 'message' | 'stack'> {
  if (recorded.outcome !== 'failed') return {};
  return {
    ...(recorded.message === undefined ? {} : { message: recorded.message }),
    ...(recorded.stack === undefined ? {} : { stack: recorded.stack }),
  };
}
