// A test node's runner recorded in the process that ran its file (the runtime guard, node-guard/), named
// as parse-node-test.ts names it from the spec reporter: its suites' names and its own joined by
// ' > ', without its file; a failed test with the file its "failing tests" section gives.
import type { GuardTestCase } from '../../core/guard-record.ts';
import type { TestCaseResult } from '../../core/test-report.ts';
import { recordedFailure } from '../recorded-failure.ts';

export function nodeTestTestCase(recorded: GuardTestCase): TestCaseResult {
  const name = recorded.titles.at(-1) ?? '';
  const { file } = recorded;
  return {
    id: recorded.titles.join(' > '),
    name,
    ...(recorded.outcome === 'failed' && file !== null ? { file } : {}),
    status: recorded.outcome,
    ...recordedFailure(recorded),
  };
}
