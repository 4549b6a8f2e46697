// A test mocha's processes recorded (the runtime guard, node-guard/), named as parse-mocha.ts names it
// from the spec reporter: its suites' titles and its own joined by ' > ', without its file (the spec
// reporter prints none). The file mocha gave the guard is kept beside the id, not in it: the judge's
// copies of a fixed test's file need to know which file holds it (src/verify/copied-tests.ts).
import type { GuardTestCase } from '../../core/guard-record.ts';
import type { TestCaseResult } from '../../core/test-report.ts';
import { recordedFailure } from '../recorded-failure.ts';

export function mochaTestCase(recorded: GuardTestCase): TestCaseResult {
  const name = recorded.titles.at(-1) ?? '';
  const { file } = recorded;
  return {
    id: recorded.titles.join(' > '),
    name,
    ...(file === null ? {} : { file }),
    status: recorded.outcome,
    ...recordedFailure(recorded),
  };
}
