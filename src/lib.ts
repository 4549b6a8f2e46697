// fixloop as a library (the package's `exports`): `run` a verified fix loop on a local repository
// from your own tooling. The Probot entry is src/index.ts; this one loads neither Probot nor a store.
export { run } from './library/run.ts';
export type { RunOptions } from './library/run-options.ts';
export type {
  ErrorOutcome,
  FlakyOutcome,
  GreenOutcome,
  NotGreenOutcome,
  NothingToFixOutcome,
  RunOutcome,
} from './library/run-outcome.ts';
export { FixloopInputError, type FixloopInputErrorCode, type InputProblem } from './library/library-error.ts';
export type { AttemptRecord, RunResult, RunStatus, StopReason, TestCounts, Verification } from './core/run-result.ts';
export type { AlternativePatch, Assessment, AssessmentLevel, BehaviourChange } from './core/assessment.ts';
export type { Flakiness, FlakyTest } from './core/flaky-test.ts';
export type { RunProgress } from './loop/progress.ts';
export type { EngineName } from './core/repo-config.ts';
export type { SandboxChoice } from './sandbox/select-sandbox.ts';
