// With checks as the gate and no engine named, the cascade puts the repository's own fixers first
// (docs/engines.md): a formatting or lint failure is fixed at $0 by the tools that report it before
// any other engine tries. One rule for the file, the flags and a check the App found in a workflow.
import { CHECK_ENGINES, DEFAULT_ENGINES, type RepoConfig } from '../core/repo-config.ts';

/** Whether the cascade is the one nobody named (the default), which checks may change. */
function unnamed(engines: readonly string[]): boolean {
  return engines.length === DEFAULT_ENGINES.length && engines.every((e, i) => e === DEFAULT_ENGINES[i]);
}

/** `config` with the cascade checks call for, when it has checks and its engines were not named. */
export function withCheckCascade(config: RepoConfig, enginesNamed: boolean): RepoConfig {
  if (config.checks.length === 0 || enginesNamed || !unnamed(config.engines)) return config;
  return { ...config, engines: [...CHECK_ENGINES] };
}

/** `config` with `commands` as its checks (a failing step the App found), and that cascade. */
export function withChecks(config: RepoConfig, commands: readonly string[]): RepoConfig {
  return withCheckCascade({ ...config, checks: [...commands] }, false);
}
