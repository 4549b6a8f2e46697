// The `bwrap` backend (bubblewrap, Linux namespaces): no network, a PID namespace that dies with its
// parent, a read-only system, the working directory writable, a private /tmp and HOME, none of the
// app's files, keys, data or other workspaces visible, the environment cleared to the allow-list.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { bwrapArgs, sandboxPath, SANDBOX_HOME } from './bwrap-args.ts';
import { sandboxEnvironment } from './environment.ts';
import { DEFAULT_LIMITS, prlimitPrefix, type SandboxLimits } from './limits.ts';
import { createCommandCgroup, joinCgroupThenExec } from './command-cgroup.ts';
import { createHostView, emptyDescription, type HostViewOptions } from './host-view.ts';
import { pathPastPyenvShims } from './pyenv-path.ts';
import { runContained } from './run-contained.ts';
import { SandboxError } from './sandbox-error.ts';
import { userPath } from './user-path.ts';
import type { CommandResult, RunCommandOptions, Sandbox } from './sandbox.ts';

export interface BwrapSettings {
  /** Extra read-only host folders with toolchains (FIXLOOP_SANDBOX_BIND). */
  toolDirs?: string[];
  limits?: SandboxLimits;
  tmpBytes?: number;
  /**
   * The operator's machine as the commands should see it (select-sandbox.ts passes the server's
   * environment): the toolchains they resolve on its PATH and the package managers' settings, shown
   * read-only. Without it, only the system, Node's own folder and `toolDirs` are shown.
   */
  host?: Omit<HostViewOptions, 'leading'>;
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
    execFileSync(bwrap, ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '/bin/true'], {
      env: {},
      stdio: 'ignore',
      timeout: 10_000,
    });
    return true;
  } catch {
    return false;
  }
}

export function createBwrapSandbox(settings: BwrapSettings = {}): Sandbox {
  const bwrap = findBwrap();
  if (!bwrap)
    throw new SandboxError(
      'BACKEND_UNAVAILABLE',
      'the bwrap sandbox needs bubblewrap: install it (Debian: apt-get install bubblewrap)',
    );
  const limits = settings.limits ?? DEFAULT_LIMITS;
  // The operator's extra folders only: the repository's tests run on the Node the user's PATH finds,
  // never on the one running fixloop (its bundled Node 24 under npx), which is not shown ahead of it.
  const toolDirs = [...(settings.toolDirs ?? [])];
  const tmpBytes = settings.tmpBytes ?? 1024 ** 3;
  // Programs are looked up as the sandbox's PATH will find them: toolDirs first.
  const host = settings.host ? createHostView({ ...settings.host, leading: toolDirs }) : null;
  return {
    backend: 'bwrap',
    describe: (commands) => host?.describe('bwrap', commands) ?? emptyDescription('bwrap'),
    async run(options: RunCommandOptions): Promise<CommandResult> {
      if (!existsSync(options.cwd)) throw new SandboxError('CWD_MISSING', `the working directory ${options.cwd} does not exist`);
      const view = host?.forCommand(options.command);
      const path = sandboxPath(host?.path ?? userPath(process.env.PATH), toolDirs, view?.visible ?? []);
      const base = { ...sandboxEnvironment({ ...view?.env, ...options.env }, SANDBOX_HOME), TMPDIR: '/tmp' };
      // The versions' folders are inside the pyenv root, which is shown whenever its shims are on the PATH.
      const env = { ...base, PATH: pathPastPyenvShims(path, base, options.cwd) };
      const args = bwrapArgs({
        command: [...prlimitPrefix(limits), '/bin/sh', '-c', options.command],
        cwd: options.cwd,
        env,
        // A toolchain removed since it was resolved is left out rather than failing every command.
        toolDirs: [...toolDirs, ...(view?.readOnly ?? []).filter((p) => existsSync(p))],
        links: view?.links ?? [],
        covered: host?.covered ?? [],
        mounts: options.mounts ?? [],
        network: options.network === true,
        ...(options.ownInit ? { ownInit: true } : {}),
        tmpBytes,
        ...(options.tmpDir ? { tmpDir: options.tmpDir } : {}),
      });
      const cgroup = await createCommandCgroup(limits);
      // bwrap itself starts with an empty environment: its PID-1 helper keeps its own, and
      // /proc/1/environ inside the sandbox would show it (docs/design.md §6).
      const program = { ...(cgroup ? joinCgroupThenExec(cgroup, bwrap, args) : { file: bwrap, args }), env: {}, cwd: '/' };
      try {
        return await runContained(program, options);
      } finally {
        await cgroup?.remove();
      }
    },
  };
}
