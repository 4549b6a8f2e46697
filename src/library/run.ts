// The library's `run`: one verified fix loop on a local repository, assembled as `fixloop run`'s is
// (`runLocal`: the same configuration file, sandbox and steps), with its outcome returned instead of
// printed. The repository is only read (its working tree becomes a commit of fixloop's own mirror):
// the run works in a temp clone, and writes only there and in the artifacts folder. What is the library's own: its options checked, the task's artifacts, the outcome.
import type { ConfigOverrides } from '../config/apply-overrides.ts';
import { ConfigError } from '../config/config-error.ts';
import { CodedError } from '../core/coded-error.ts';
import type { RepoConfig } from '../core/repo-config.ts';
import { createMemorySpendLedger } from '../core/spend-ledger.ts';
import { agentSettingsFrom } from '../engines/agent/agent-settings.ts';
import { localRequest, startingConfig } from '../loop/local-request.ts';
import { runLocal, type RunFixDeps } from '../loop/local-run.ts';
import { selectSandbox } from '../sandbox/select-sandbox.ts';
import { inputError } from './library-error.ts';
import { outcomeOf, type RunOutcome } from './run-outcome.ts';
import { checkRunOptions, type CheckedOptions, type RunOptions } from './run-options.ts';
import { openTaskArtifacts } from './task-artifacts.ts';

/**
 * Runs the fix loop on the repository at `repositoryPath` until its tests pass, verified on a
 * pristine checkout, or `attemptLimit` attempts are spent. The run starts from the working tree as it
 * is, as `fixloop run` does: uncommitted changes to tracked files and untracked files git does not
 * ignore are part of it, and its fixloop.yml is read from there (`workingTree: false`: from HEAD).
 * The outcome's `result.repository.workingTree` says what the run took in. Throws FixloopInputError for bad options, before anything runs; a run that
 * happens always resolves to an outcome.
 */
export async function run(repositoryPath: string, options: RunOptions): Promise<RunOutcome> {
  const checked = checkRunOptions(repositoryPath, options);
  const overrides = overridesFrom(checked);
  // The working tree's file is checked before anything runs, so a bad key fails fast.
  const initial = await checkedRepositoryConfig(checked.repository, overrides, checked.workingTree);
  checkConfig(checked, initial);
  const env = checked.env ?? process.env;
  const { sandbox, warning } = chosenSandbox(checked);

  const artifacts = await openTaskArtifacts(checked.artifactsDir, checked.taskId);
  const request = localRequest({
    source: checked.repository,
    goal: checked.goal,
    config: initial,
    workingTree: checked.workingTree,
  });
  const deps: RunFixDeps = {
    sandbox,
    setupNetwork: checked.setupNetwork,
    artifactsRoot: artifacts.dir,
    artifactsDir: artifacts.runDir,
    engineEnvironment: { env, ledger: createMemorySpendLedger() },
    ...(checked.cacheDir ? { cacheDir: checked.cacheDir } : {}),
    ...(checked.signal ? { signal: checked.signal } : {}),
    ...(checked.onProgress ? { onProgress: checked.onProgress } : {}),
  };
  // The repository's file as the run starts with it (read from the clone), with the options on top.
  const { result } = await runLocal({ request, overrides }, deps);
  return outcomeOf(result, {
    diffs: await artifacts.storeDiffs(result),
    artifactsDir: artifacts.dir,
    warnings: warning ? [warning] : [],
    lastOutput: await artifacts.lastOutput(result),
  });
}

function overridesFrom(o: CheckedOptions): ConfigOverrides {
  return {
    test: o.testCommand,
    maxAttempts: o.attemptLimit,
    ...(o.setupCommand !== undefined ? { setup: o.setupCommand } : {}),
    ...(o.engines !== undefined ? { engines: o.engines } : {}),
    ...(o.scriptCommand !== undefined ? { script: o.scriptCommand } : {}),
    ...(o.timeoutSeconds !== undefined ? { timeout: o.timeoutSeconds } : {}),
  };
}

/** The repository's fixloop.yml with the options on top; a bad file is the caller's to fix. */
async function checkedRepositoryConfig(root: string, overrides: ConfigOverrides, workingTree: boolean): Promise<RepoConfig> {
  try {
    return await startingConfig(root, overrides, workingTree);
  } catch (error) {
    if (error instanceof ConfigError)
      throw inputError('CONFIG_INVALID', null, `the repository's configuration: ${error.message}`);
    throw error;
  }
}

/** What the engines need, checked before anything is cloned, as the CLI does. */
function checkConfig(o: CheckedOptions, config: RepoConfig): void {
  if (config.engines.includes('script') && !config.script.command) {
    throw inputError(
      'MISSING_OPTION',
      'scriptCommand',
      "the `script` engine needs `scriptCommand` (or `script.command` in the repository's fixloop.yml)",
    );
  }
  const env = o.env ?? process.env;
  if (!config.engines.includes('agent') && !env.FIXLOOP_REVIEW_MODEL) return;
  try {
    agentSettingsFrom(env, config.engines.includes('agent'));
  } catch (error) {
    if (error instanceof CodedError) throw inputError('INVALID_OPTION', 'env', error.message);
    throw error;
  }
}

function chosenSandbox(o: CheckedOptions): ReturnType<typeof selectSandbox> {
  try {
    return selectSandbox(o.sandbox);
  } catch (error) {
    if (error instanceof CodedError) throw inputError('INVALID_OPTION', 'sandbox', error.message);
    throw error;
  }
}
