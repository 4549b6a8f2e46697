// A test vitest's processes recorded (the runtime guard, node-guard/), named as parse-vitest.ts names it
// from the default reporter: its file, its suites' titles and its own joined by ' > '.
import type { GuardTestCase } from '../../core/guard-record.ts';
import type { TestCaseResult } from '../../core/test-report.ts';
import { recordedFailure } from '../recorded-failure.ts';

export function vitestTestCase(recorded: GuardTestCase): TestCaseResult {
  const name = recorded.titles.at(-1) ?? '';
  const { file } = recorded;
  return {
    id: [...(file === null ? [] : [file]), ...recorded.titles].join(' > '),
    name,
    ...(file === null ? {} : { file }),
    status: recorded.outcome,
    ...recordedFailure(recorded),
  };
}
