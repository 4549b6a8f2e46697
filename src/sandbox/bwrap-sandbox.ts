// The `bwrap` backend (bubblewrap, Linux namespaces): no network, a PID namespace that dies with its
// parent, a read-only system, the working directory writable, a private /tmp and HOME, none of the
// app's files, keys, data or other workspaces visible, the environment cleared to the allow-list.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { bwrapArgs, sandboxPath, SANDBOX_HOME } from './bwrap-args.ts';
import { sandboxEnvironment } from './environment.ts';
import { DEFAULT_LIMITS, prlimitPrefix, type SandboxLimits } from './limits.ts';
import { createCommandCgroup, joinCgroupThenExec } from './command-cgroup.ts';
import { runContained } from './run-contained.ts';
import { SandboxError } from './sandbox-error.ts';
import type { CommandResult, RunCommandOptions, Sandbox } from './sandbox.ts';

export interface BwrapSettings {
  /** Extra read-only host folders with toolchains (FIXLOOP_SANDBOX_BIND). */
  toolDirs?: string[];
  limits?: SandboxLimits;
  tmpBytes?: number;
}

const BWRAP_PATHS = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

export function findBwrap(): string | null {
  return BWRAP_PATHS.find((p) => existsSync(p)) ?? null;
}

/** bwrap is installed and the kernel lets it create namespaces here (not always so in containers). */
export function bwrapWorks(): boolean {
  const bwrap = findBwrap();
  if (!bwrap) return false;
  try {
    execFileSync(bwrap, ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '/bin/true'], { env: {}, stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

export function createBwrapSandbox(settings: BwrapSettings = {}): Sandbox {
  const bwrap = findBwrap();
  if (!bwrap) throw new SandboxError('BACKEND_UNAVAILABLE', 'the bwrap sandbox needs bubblewrap: install it (Debian: apt-get install bubblewrap)');
  const limits = settings.limits ?? DEFAULT_LIMITS;
  // Node's own folder only (not the app's): the repository's tests run on the same Node as fixloop.
  const toolDirs = [dirname(process.execPath), ...(settings.toolDirs ?? [])];
  const tmpBytes = settings.tmpBytes ?? 1024 ** 3;
  return {
    backend: 'bwrap',
    async run(options: RunCommandOptions): Promise<CommandResult> {
      if (!existsSync(options.cwd)) throw new SandboxError('CWD_MISSING', `the working directory ${options.cwd} does not exist`);
      const env = { ...sandboxEnvironment(options.env ?? {}, SANDBOX_HOME), TMPDIR: '/tmp', PATH: sandboxPath(process.env.PATH ?? '', toolDirs) };
      const args = bwrapArgs({
        command: [...prlimitPrefix(limits), '/bin/sh', '-c', options.command],
        cwd: options.cwd,
        env,
        toolDirs,
        mounts: options.mounts ?? [],
        network: options.network === true,
        tmpBytes,
      });
      const cgroup = await createCommandCgroup(limits);
      // bwrap itself starts with an empty environment: its PID-1 helper keeps its own, and
      // /proc/1/environ inside the sandbox would show it (DESIGN.md §6).
      const program = { ...(cgroup ? joinCgroupThenExec(cgroup, bwrap, args) : { file: bwrap, args }), env: {}, cwd: '/' };
      try {
        return await runContained(program, options);
      } finally {
        await cgroup?.remove();
      }
    },
  };
}
