// Resource limits every backend applies to a command, besides the wall-clock timeout and the output
// cap: CPU time, processes, size of any file written and open files with util-linux's `prlimit` on
// the command itself (so they hold inside bwrap too); processes and memory also with a cgroup where
// fixloop can make one. The docker backend passes its own equivalents.
import { existsSync } from 'node:fs';

export interface SandboxLimits {
  /** CPU seconds per process (RLIMIT_CPU). */
  cpuSeconds: number;
  /** Memory of the whole command in bytes: a cgroup limit where fixloop can make one (see command-cgroup.ts). */
  memoryBytes: number;
  /** Processes of the user (RLIMIT_NPROC; not enforced by the kernel for root: see docs/security.md). */
  processes: number;
  /** Largest file a command may write, in bytes (RLIMIT_FSIZE). */
  fileSizeBytes: number;
  openFiles: number;
}

const GiB = 1024 ** 3;

export const DEFAULT_LIMITS: SandboxLimits = {
  cpuSeconds: 1800,
  memoryBytes: 4 * GiB,
  processes: 1024,
  fileSizeBytes: 1 * GiB,
  openFiles: 4096,
};

const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((p) => existsSync(p)) ?? null;

/** `prlimit --cpu=… -- ` before the command, or nothing where util-linux's prlimit is missing. */
export function prlimitPrefix(limits: SandboxLimits): string[] {
  if (!PRLIMIT) return [];
  return [
    PRLIMIT,
    `--cpu=${limits.cpuSeconds}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}`,
    '--',
  ];
}

/** Limits from the app's environment (FIXLOOP_LIMIT_*), never from a repository. */
export function limitsFromEnvironment(env: NodeJS.ProcessEnv): SandboxLimits {
  /** `fallback` is in the limit's own unit; the variable's value is multiplied by `scale`. */
  const read = (name: string, fallback: number, scale = 1): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got \`${raw}\`)`);
    return Math.floor(value * scale);
  };
  return {
    cpuSeconds: read('FIXLOOP_LIMIT_CPU_SECONDS', DEFAULT_LIMITS.cpuSeconds),
    memoryBytes: read('FIXLOOP_LIMIT_MEMORY_MB', DEFAULT_LIMITS.memoryBytes, 1024 ** 2),
    processes: read('FIXLOOP_LIMIT_PROCESSES', DEFAULT_LIMITS.processes),
    fileSizeBytes: read('FIXLOOP_LIMIT_FILE_MB', DEFAULT_LIMITS.fileSizeBytes, 1024 ** 2),
    openFiles: DEFAULT_LIMITS.openFiles,
  };
}
