// A failing check's failed step (FixRequest.failedCommand, from the forge's CI definition) read once
// the clone shows the repository's scripts: a step that starts no test runner (`npm run lint`) is no
// test suite, so it becomes the run's check, the tests beside it guarding (docs/design.md §1.5); a
// step that runs the tests is the test command when none is configured.
import { withChecks } from '../config/check-cascade.ts';
import type { RepoConfig } from '../core/repo-config.ts';
import { runnerOf } from '../runners/registry.ts';
import { packageScripts } from '../runners/package-scripts.ts';

export interface FailedStepConfig {
  config: RepoConfig;
  /** What the run made of the step, in words (a run event); null when nothing changed. */
  note: string | null;
}

export async function withFailedStep(config: RepoConfig, command: string | undefined, root: string): Promise<FailedStepConfig> {
  const step = command?.trim();
  if (!step || config.checks.includes(step)) return { config, note: null };
  const scripts = await packageScripts(root);
  if (step === config.test.command?.trim() || runnerOf(step, scripts)) {
    if (config.test.command) return { config, note: null };
    return {
      config: { ...config, test: { ...config.test, command: step } },
      note: `the failing step \`${step}\` runs the tests: it is the test command`,
    };
  }
  return {
    config: withChecks(config, [...config.checks, step]),
    note: `the failing step \`${step}\` is no test suite: it is the gate (a check), the tests guarding against regressions`,
  };
}
