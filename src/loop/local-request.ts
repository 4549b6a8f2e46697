// A run asked for on this machine (`fixloop run`, the library's `run()`): the configuration is the
// repository's own file with the caller's overrides (flags, options) on top, read from the working
// tree before anything runs, so a bad key fails fast, and again from the clone once it exists; the
// request is a local one, whatever the goal.
import { applyOverrides, type ConfigOverrides } from '../config/apply-overrides.ts';
import { loadConfigFile } from '../config/load-config-file.ts';
import type { FixRequest } from '../core/fix-request.ts';
import { defaultRepoConfig, type RepoConfig } from '../core/repo-config.ts';
import { newRunId } from '../core/run-id.ts';

/**
 * The repository's fixloop.yml (or its defaults when it has none) with `overrides` on top; null: a
 * repository not on this machine yet (a URL), whose defaults apply until its clone is read.
 * Throws ConfigError for a bad file.
 */
export async function repositoryConfig(root: string | null, overrides: ConfigOverrides): Promise<RepoConfig> {
  return applyOverrides(root === null ? defaultRepoConfig() : (await loadConfigFile(root)).config, overrides);
}

export interface LocalAsk {
  /** A local path or a git URL. */
  source: string;
  /** Base ref whose diff to HEAD is the strongest localization hint. */
  baseRef?: string | null;
  /** What is wrong, in words; without one, the failing tests are the goal and no test is written first. */
  goal?: string | undefined;
  /** The configuration as read before the run (`repositoryConfig`). */
  config: RepoConfig;
}

export function localRequest(ask: LocalAsk): FixRequest {
  return {
    runId: newRunId(),
    repository: { cloneUrl: ask.source, ref: null, sha: null, baseRef: ask.baseRef ?? null },
    // A library call is a local run, as the CLI's is.
    trigger: { kind: 'cli', number: null, deliveryId: null, actor: null },
    goal: ask.goal?.trim() || 'Make the failing tests pass.',
    writeTestWhenGreen: ask.goal !== undefined,
    hints: [],
    config: ask.config,
  };
}
