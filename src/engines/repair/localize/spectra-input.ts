// What every way of collecting per-test coverage is given.
import type { TestCaseResult } from '../../../core/test-report.ts';
import type { Sandbox } from '../../../sandbox/sandbox.ts';

export interface SpectraInput {
  root: string;
  sandbox: Sandbox;
  testCommand: string;
  tests: readonly TestCaseResult[];
  /** Passing tests of the last run, when known (runners such as pytest -q do not list them). */
  passedCount?: number;
  /** package.json's scripts, to see through `npm test`. */
  packageScripts?: Record<string, string>;
  env: Record<string, string>;
  /** Duration of one full suite run, to project the cost. */
  suiteMs: number;
  deadline: number;
  signal: AbortSignal;
}
