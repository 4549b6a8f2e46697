// The `process` backend: no isolation beyond an allow-listed environment, a throw-away HOME,
// timeouts that kill the whole process group, capped output and resource limits (DESIGN.md §3.1,
// §3.5). It does not hide the file system or the network: reports say so.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxEnvironment } from './environment.ts';
import { DEFAULT_LIMITS, prlimitPrefix, type SandboxLimits } from './limits.ts';
import { createCommandCgroup, joinCgroupThenExec, type CommandCgroup } from './command-cgroup.ts';
import { runContained } from './run-contained.ts';
import { SandboxError } from './sandbox-error.ts';
import type { CommandResult, RunCommandOptions, Sandbox } from './sandbox.ts';

export function createProcessSandbox(limits: SandboxLimits = DEFAULT_LIMITS): Sandbox {
  return {
    backend: 'process',
    async run(options: RunCommandOptions): Promise<CommandResult> {
      if (!existsSync(options.cwd)) throw new SandboxError('CWD_MISSING', `the working directory ${options.cwd} does not exist`);
      const home = await mkdtemp(join(tmpdir(), 'fixloop-home-'));
      let cgroup: CommandCgroup | null = null;
      try {
        const [file = '/bin/sh', ...args] = [...prlimitPrefix(limits), '/bin/sh', '-c', options.command];
        cgroup = await createCommandCgroup(limits);
        const program = cgroup ? joinCgroupThenExec(cgroup, file, args) : { file, args };
        return await runContained({ ...program, env: sandboxEnvironment(options.env ?? {}, home), cwd: options.cwd }, options);
      } finally {
        await cgroup?.remove();
        await rm(home, { recursive: true, force: true }).catch(() => undefined);
      }
    },
  };
}
