// A test mocha's processes recorded (the runtime guard, node-guard/), named as parse-mocha.ts names it
// from the spec reporter: its suites' titles and its own joined by ' > ', without its file (the spec
// reporter prints none).
import type { GuardTestCase } from '../../core/guard-record.ts';
import type { TestCaseResult } from '../../core/test-report.ts';
import { recordedFailure } from '../recorded-failure.ts';

export function mochaTestCase(recorded: GuardTestCase): TestCaseResult {
  const name = recorded.titles.at(-1) ?? '';
  return { id: recorded.titles.join(' > '), name, status: recorded.outcome, ...recordedFailure(recorded) };
}
