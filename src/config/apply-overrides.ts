// CLI flags override the repository's file (issue: "flags override the file").
import { validateRepoConfig } from './parse-config.ts';
import { withCheckCascade } from './check-cascade.ts';
import type { CliAgentName, EngineName, EvidenceKind, RepoConfig } from '../core/repo-config.ts';

export interface ConfigOverrides {
  test?: string;
  setup?: string;
  /** Replaces `checks` (`--check`, repeatable). */
  checks?: string[];
  engines?: EngineName[];
  script?: string;
  maxAttempts?: number;
  maxConsecutiveFailures?: number;
  /** Replaces `paths.allowed`. */
  allow?: string[];
  /** Added to `paths.protected`: a flag can tighten the defaults, never loosen them. */
  protect?: string[];
  /** Seconds, for test, setup and script commands. */
  timeout?: number;
  /** The coding agent of the `cli` engine. */
  cliAgent?: CliAgentName;
  /** `test.evidence`. */
  evidence?: EvidenceKind;
}

export function applyOverrides(config: RepoConfig, o: ConfigOverrides): RepoConfig {
  const merged = structuredClone(config);
  if (o.test !== undefined) merged.test.command = o.test;
  if (o.setup !== undefined) merged.setup.command = o.setup;
  if (o.checks !== undefined && o.checks.length > 0) merged.checks = o.checks;
  if (o.engines !== undefined) merged.engines = o.engines;
  if (o.script !== undefined) merged.script.command = o.script;
  if (o.cliAgent !== undefined) merged.cli.agent = o.cliAgent;
  if (o.evidence !== undefined) merged.test.evidence = o.evidence;
  if (o.maxAttempts !== undefined) merged.loop.maxAttempts = o.maxAttempts;
  if (o.maxConsecutiveFailures !== undefined) merged.loop.maxConsecutiveFailures = o.maxConsecutiveFailures;
  if (o.allow !== undefined && o.allow.length > 0) merged.paths.allowed = o.allow;
  if (o.protect !== undefined) merged.paths.protected = [...new Set([...merged.paths.protected, ...o.protect])];
  if (o.timeout !== undefined) {
    merged.test.timeout = o.timeout;
    merged.setup.timeout = o.timeout;
    merged.script.timeout = o.timeout;
  }
  // Re-validate: flags obey the same rules as the file. Checks given by flags bring the fixers first
  // unless the flags name the cascade (a file's `[repair]` cannot be told from the default here).
  const validated = validateRepoConfig(merged, 'command-line flags');
  return o.checks?.length ? withCheckCascade(validated, o.engines !== undefined) : validated;
}
