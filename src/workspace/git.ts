// Every git command fixloop runs goes through here: repository-controlled programs are switched off
// (hooks, fsmonitor, external diff, pagers), the user's and system's configuration are ignored, and
// credentials travel only as an HTTP header on the command line of the one call that needs them.
import { simpleGit, type SimpleGit } from 'simple-git';
import type { CloneAuth } from '../core/clone-auth.ts';
import { redactSecrets } from '../core/redact.ts';

const HARDENING = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.askPass=',
  'credential.helper=',
  'protocol.ext.allow=never',
  'diff.external=',
  'advice.detachedHead=false',
  'init.defaultBranch=main',
  'user.name=fixloop',
  'user.email=fixloop@localhost',
];

/** The environment of fixloop's own git commands: nothing of the user's git setup, no prompts. */
export function gitEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/nonexistent',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    GIT_AUTHOR_NAME: 'fixloop',
    GIT_AUTHOR_EMAIL: 'fixloop@localhost',
    GIT_COMMITTER_NAME: 'fixloop',
    GIT_COMMITTER_EMAIL: 'fixloop@localhost',
    LANG: 'C',
    ...extra,
  };
}

export function git(baseDir: string, options: { auth?: CloneAuth; env?: Record<string, string> } = {}): SimpleGit {
  const config = [...HARDENING];
  if (options.auth) config.push(`http.extraHeader=${options.auth.header}`);
  const env = gitEnvironment(options.env);
  return simpleGit({
    baseDir,
    config,
    // fixloop sets these variables itself, to switch the user's and the system's git setup off.
    allowEnvironment: Object.keys(env),
    timeout: { block: 10 * 60_000 },
    // simple-git refuses these keys by default because they can run programs; fixloop sets each of
    // them to the value that runs nothing, which is the point.
    unsafe: {
      allowUnsafeHooksPath: true,
      allowUnsafeFsMonitor: true,
      allowUnsafePager: true,
      allowUnsafeAskPass: true,
      allowUnsafeCredentialHelper: true,
      allowUnsafeDiffExternal: true,
      allowUnsafeProtocolOverride: true,
      allowUnsafeConfigPaths: true,
    },
  }).env(env);
}

/** A git error's message, without anything that looks like a credential. */
export function gitMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return redactSecrets(text)
    .trim()
    .split('\n')
    .filter((l) => l.trim())
    .slice(-6)
    .join('\n');
}
