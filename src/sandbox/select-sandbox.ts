// Which isolation backend runs a repository's code: chosen by the app's settings (FIXLOOP_SANDBOX,
// or --sandbox on the CLI), never by the repository. `auto` takes the strongest one available.
import { CodedError } from '../core/coded-error.ts';
import { bwrapWorks, createBwrapSandbox } from './bwrap-sandbox.ts';
import { createDockerSandbox, dockerWorks } from './docker-sandbox.ts';
import { limitsFromEnvironment } from './limits.ts';
import { createProcessSandbox } from './process-sandbox.ts';
import type { Sandbox } from './sandbox.ts';
import { withUserPath } from './user-path.ts';

export const SANDBOX_CHOICES = ['auto', 'bwrap', 'docker', 'process'] as const;
export type SandboxChoice = (typeof SANDBOX_CHOICES)[number];

export class SandboxChoiceError extends CodedError<'BAD_SANDBOX'> {}

/**
 * The server's environment variables. A plain record, not Node's `NodeJS.ProcessEnv`: the library's
 * published types compile without `@types/node`.
 */
export type HostEnvironment = Record<string, string | undefined>;

export interface SandboxHostOptions {
  /**
   * The setup and test command lines when they are known (the CLI): the toolchains of the programs
   * they name are resolved at once. Any command's programs are resolved on its first run anyway.
   */
  commands?: string[];
}

export interface SelectedSandbox {
  sandbox: Sandbox;
  /** Set when the choice gives no isolation: shown in logs and in every report. */
  warning: string | null;
}

export function parseSandboxChoice(value: string | undefined, source: string): SandboxChoice {
  const choice = (value ?? 'auto').trim() || 'auto';
  if ((SANDBOX_CHOICES as readonly string[]).includes(choice)) return choice as SandboxChoice;
  throw new SandboxChoiceError(
    'BAD_SANDBOX',
    `${source}: unknown sandbox \`${choice}\`; choose one of ${SANDBOX_CHOICES.join(', ')}`,
  );
}

/**
 * The sandbox for this server environment. The toolchains its commands resolve on the environment's
 * PATH and the package managers' settings (read by running the operator's npm and pip, once per
 * process) are worked out here, once, and given to every command: `sandbox.describe(commands)` says
 * what was shown and passed.
 */
export function selectSandbox(
  choice: SandboxChoice,
  serverEnv: HostEnvironment = process.env,
  options: SandboxHostOptions = {},
): SelectedSandbox {
  // The user's PATH, once for every backend: fixloop's own install folders never lead it (user-path.ts).
  const env = withUserPath(serverEnv);
  const limits = limitsFromEnvironment(env);
  const toolDirs = (env.FIXLOOP_SANDBOX_BIND ?? '').split(':').filter((p) => p.startsWith('/'));
  const host = { env, ...(options.commands ? { commands: options.commands } : {}) };
  const docker = () =>
    createDockerSandbox({
      engine: env.FIXLOOP_DOCKER ?? 'docker',
      ...(env.FIXLOOP_DOCKER_IMAGE ? { image: env.FIXLOOP_DOCKER_IMAGE } : {}),
      limits,
      host,
    });
  const processWarning =
    'the `process` sandbox isolates nothing but the environment: the repository’s code can read and write what fixloop can, and reach the network';
  switch (choice) {
    case 'bwrap':
      if (!bwrapWorks())
        throw new SandboxChoiceError(
          'BAD_SANDBOX',
          'sandbox `bwrap`: bubblewrap is not installed or cannot create namespaces here (Debian: apt-get install bubblewrap; in a container, allow user namespaces or use the docker backend)',
        );
      return { sandbox: createBwrapSandbox({ toolDirs, limits, host }), warning: null };
    case 'docker':
      if (!dockerWorks(env.FIXLOOP_DOCKER ?? 'docker'))
        throw new SandboxChoiceError(
          'BAD_SANDBOX',
          `sandbox \`docker\`: \`${env.FIXLOOP_DOCKER ?? 'docker'} info\` failed: is the daemon running and may this user use it?`,
        );
      return { sandbox: docker(), warning: null };
    case 'process':
      return { sandbox: createProcessSandbox(limits, host), warning: processWarning };
    case 'auto':
      if (bwrapWorks()) return { sandbox: createBwrapSandbox({ toolDirs, limits, host }), warning: null };
      if (dockerWorks(env.FIXLOOP_DOCKER ?? 'docker')) return { sandbox: docker(), warning: null };
      return {
        sandbox: createProcessSandbox(limits, host),
        warning: `no isolating sandbox is available (install bubblewrap, or give fixloop a docker daemon): ${processWarning}`,
      };
  }
}
