// The `process` backend: no isolation beyond an allow-listed environment, a throw-away HOME,
// timeouts that kill the whole process group, capped output and resource limits (docs/design.md §3.1.1,
// §3.1.5). It does not hide the file system or the network: reports say so.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxEnvironment } from './environment.ts';
import { DEFAULT_LIMITS, prlimitPrefix, type SandboxLimits } from './limits.ts';
import { createCommandCgroup, joinCgroupThenExec, type CommandCgroup } from './command-cgroup.ts';
import { createHostView, emptyDescription, type HostViewOptions } from './host-view.ts';
import { pathPastPyenvShims } from './pyenv-path.ts';
import { runContained } from './run-contained.ts';
import { SandboxError } from './sandbox-error.ts';
import type { CommandResult, RunCommandOptions, Sandbox } from './sandbox.ts';

/**
 * `host`: the server's environment, for the same PATH, toolchain variables (PYENV_*, VIRTUAL_ENV) and
 * package settings as the isolating backends; nothing needs showing, everything is visible anyway.
 */
export function createProcessSandbox(
  limits: SandboxLimits = DEFAULT_LIMITS,
  hostOptions?: Omit<HostViewOptions, 'leading'>,
): Sandbox {
  const host = hostOptions ? createHostView(hostOptions) : null;
  return {
    backend: 'process',
    describe: (commands) => host?.describe('process', commands, false) ?? emptyDescription('process'),
    async run(options: RunCommandOptions): Promise<CommandResult> {
      if (!existsSync(options.cwd)) throw new SandboxError('CWD_MISSING', `the working directory ${options.cwd} does not exist`);
      const home = await mkdtemp(join(tmpdir(), 'fixloop-home-'));
      let cgroup: CommandCgroup | null = null;
      try {
        const [file = '/bin/sh', ...args] = [...prlimitPrefix(limits), '/bin/sh', '-c', options.command];
        cgroup = await createCommandCgroup(limits);
        const program = cgroup ? joinCgroupThenExec(cgroup, file, args) : { file, args };
        const view = host?.forCommand(options.command);
        const extra = {
          ...(host ? { PATH: host.path } : {}),
          ...view?.env,
          ...options.env,
          ...(options.tmpDir ? { TMPDIR: options.tmpDir } : {}),
        };
        const env = sandboxEnvironment(extra, home);
        env.PATH = pathPastPyenvShims(env.PATH ?? '', env, options.cwd);
        return await runContained({ ...program, env, cwd: options.cwd }, options);
      } finally {
        await cgroup?.remove();
        await rm(home, { recursive: true, force: true }).catch(() => undefined);
      }
    },
  };
}
