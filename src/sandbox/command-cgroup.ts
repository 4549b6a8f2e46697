// A cgroup per command, where fixloop may create one (root, or a delegated hierarchy), for the two
// limits rlimits cannot give: processes for root (the kernel exempts root from RLIMIT_NPROC, and CI
// and many containers run as root) and memory for Node (RLIMIT_AS breaks WebAssembly, which Node's
// own fetch uses). cgroup v2 and v1 (one hierarchy per controller) are both handled.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface CommandCgroup {
  /** The files a process writes its pid into to join (one per v1 hierarchy, one on v2). */
  procsFiles: string[];
  /** The limits that could be set, for reports and docs (e.g. `pids`, `memory`). */
  enforced: string[];
  /** Kills whatever is left in the group and removes it. */
  remove(): Promise<void>;
}

interface Target {
  dir: string;
  settings: Array<[file: string, value: string]>;
  controller: string;
}

const ROOT = '/sys/fs/cgroup';

function targets(name: string, limits: { processes: number; memoryBytes: number }): Target[] {
  if (existsSync(join(ROOT, 'cgroup.controllers'))) {
    return [
      {
        dir: join(ROOT, name),
        settings: [
          ['pids.max', String(limits.processes)],
          ['memory.max', String(limits.memoryBytes)],
          ['memory.swap.max', '0'],
        ],
        controller: 'pids+memory',
      },
    ];
  }
  const v1: Target[] = [];
  if (existsSync(join(ROOT, 'pids', 'cgroup.procs')))
    v1.push({ dir: join(ROOT, 'pids', name), settings: [['pids.max', String(limits.processes)]], controller: 'pids' });
  if (existsSync(join(ROOT, 'memory', 'cgroup.procs')))
    v1.push({
      dir: join(ROOT, 'memory', name),
      settings: [['memory.limit_in_bytes', String(limits.memoryBytes)]],
      controller: 'memory',
    });
  return v1;
}

export async function createCommandCgroup(limits: { processes: number; memoryBytes: number }): Promise<CommandCgroup | null> {
  const name = `fixloop-${randomBytes(6).toString('hex')}`;
  const made: Target[] = [];
  const enforced: string[] = [];
  for (const target of targets(name, limits)) {
    try {
      await mkdir(target.dir);
    } catch {
      continue;
    }
    made.push(target);
    let ok = true;
    for (const [file, value] of target.settings) {
      // memory.swap.max is missing without swap accounting: the other settings still hold.
      await writeFile(join(target.dir, file), value).catch(() => {
        if (!file.includes('swap')) ok = false;
      });
    }
    if (ok) enforced.push(target.controller);
  }
  if (made.length === 0) return null;
  const procsFiles = made.map((t) => join(t.dir, 'cgroup.procs'));
  return {
    procsFiles,
    enforced,
    async remove() {
      for (let i = 0; i < 50; i++) {
        const pids = (await Promise.all(procsFiles.map((f) => readFile(f, 'utf8').catch(() => ''))))
          .join('\n')
          .split('\n')
          .filter(Boolean)
          .map(Number);
        if (pids.length === 0) break;
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await Promise.all(made.map((t) => rmdir(t.dir).catch(() => undefined)));
    },
  };
}

/** `sh -c` that joins the cgroup, then execs the real program: nothing it starts runs outside. */
export function joinCgroupThenExec(cgroup: CommandCgroup, file: string, args: string[]): { file: string; args: string[] } {
  const joins = cgroup.procsFiles.map((_, i) => `echo $$ > "$${i + 1}"`).join(' && ');
  const n = cgroup.procsFiles.length;
  return {
    file: '/bin/sh',
    args: ['-c', `${joins} && shift ${n} && exec "$@"`, 'fixloop-cgroup', ...cgroup.procsFiles, file, ...args],
  };
}
