// The `docker` backend (podman works too): one container per command, no network, the working
// directory mounted at the same path, a configurable image so a repository's toolchain can come
// with it, resource limits, no capabilities, a read-only root file system.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { sandboxEnvironment } from './environment.ts';
import { DEFAULT_LIMITS, type SandboxLimits } from './limits.ts';
import { bindGuardFrom } from './bind-guard.ts';
import { emptyDescription, type HostViewOptions } from './host-view.ts';
import { packageSettingsFor } from './package-settings.ts';
import { runContained } from './run-contained.ts';
import { SandboxError } from './sandbox-error.ts';
import type { CommandResult, RunCommandOptions, Sandbox } from './sandbox.ts';

export interface DockerSettings {
  /** `docker` or `podman` (FIXLOOP_DOCKER). */
  engine?: string;
  /** The image commands run in (FIXLOOP_DOCKER_IMAGE). */
  image?: string;
  limits?: SandboxLimits;
  /**
   * The server's environment, for the package managers' settings (mounted read-only, with their
   * variables). Toolchains are the image's: the host's would not run on another system.
   */
  host?: Omit<HostViewOptions, 'leading'>;
}

export const DEFAULT_DOCKER_IMAGE = 'node:24-slim';
const HOME = '/tmp/home';

/** The engine answers (`docker info`): its daemon runs and this user may use it. */
export function dockerWorks(engine = 'docker'): boolean {
  try {
    execFileSync(engine, ['info', '--format', '{{.ServerVersion}}'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

export function dockerRunArgs(
  options: RunCommandOptions,
  settings: { name: string; image: string; limits: SandboxLimits; user: string },
): string[] {
  const env = { ...sandboxEnvironment(options.env ?? {}, HOME), TMPDIR: '/tmp' };
  // The image's own PATH: the repository's toolchain is the image's.
  delete (env as Record<string, string | undefined>).PATH;
  const { limits } = settings;
  return [
    'run',
    '--rm',
    '--name',
    settings.name,
    '--network',
    options.network === true ? 'bridge' : 'none',
    '--user',
    settings.user,
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges',
    // A kept /tmp still gets an empty HOME: what one candidate's run leaves in its home never reaches the next.
    '--read-only',
    ...(options.tmpDir
      ? ['-v', `${options.tmpDir}:/tmp`, '--tmpfs', `${HOME}:rw,exec,size=256m`]
      : ['--tmpfs', '/tmp:rw,exec,size=1g']),
    '--memory',
    String(limits.memoryBytes),
    '--pids-limit',
    String(limits.processes),
    '--ulimit',
    `cpu=${limits.cpuSeconds}`,
    '--ulimit',
    `fsize=${limits.fileSizeBytes}`,
    '--ulimit',
    `nofile=${limits.openFiles}`,
    '-v',
    `${options.cwd}:${options.cwd}`,
    ...(options.mounts ?? []).flatMap((m) =>
      m.scratch ? ['--tmpfs', `${m.path}:rw,exec,size=256m`] : ['-v', `${m.path}:${m.path}${m.writable ? '' : ':ro'}`],
    ),
    '-w',
    options.cwd,
    ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    settings.image,
    '/bin/sh',
    '-c',
    `mkdir -p ${HOME} && exec /bin/sh -c "$0"`,
    options.command,
  ];
}

export function createDockerSandbox(settings: DockerSettings = {}): Sandbox {
  const engine = settings.engine ?? 'docker';
  const image = settings.image ?? DEFAULT_DOCKER_IMAGE;
  const limits = settings.limits ?? DEFAULT_LIMITS;
  // The container writes the workspace as the user fixloop runs as, so fixloop can read it back.
  const user = `${process.getuid?.() ?? 1000}:${process.getgid?.() ?? 1000}`;
  const backend = engine === 'podman' ? 'podman' : 'docker';
  const packages = settings.host ? packageSettingsFor(settings.host.env, bindGuardFrom(settings.host.env)) : null;
  return {
    backend,
    describe: () => {
      const description = emptyDescription(backend);
      if (packages)
        description.packageSettings = {
          npmKeys: packages.npmKeys,
          pipKeys: packages.pipKeys,
          passedVariables: packages.passed,
          dropped: packages.dropped,
          shown: packages.readOnly,
          refused: packages.refused,
        };
      return description;
    },
    async run(options: RunCommandOptions): Promise<CommandResult> {
      if (!existsSync(options.cwd)) throw new SandboxError('CWD_MISSING', `the working directory ${options.cwd} does not exist`);
      const name = `fixloop-${randomBytes(6).toString('hex')}`;
      const withPackages: RunCommandOptions = packages
        ? {
            ...options,
            env: { ...packages.env, ...options.env },
            mounts: [...packages.readOnly.map((path) => ({ path })), ...(options.mounts ?? [])],
          }
        : options;
      const args = dockerRunArgs(withPackages, { name, image, limits, user });
      // Killing the client does not stop the container: the daemon must be told.
      const kill = () => void spawn(engine, ['kill', name], { stdio: 'ignore' }).on('error', () => undefined);
      return runContained(
        { file: engine, args, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cwd: options.cwd, onStop: kill },
        options,
      );
    },
  };
}
