// The bubblewrap command line for one sandboxed command (pure, so each isolation rule is testable):
// a read-only system, the working directory writable, a private /tmp and HOME, nothing else of the
// host's files; new user, PID, network, IPC and UTS namespaces; a cleared environment.
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { delimiter, isAbsolute, resolve, sep } from 'node:path';
import type { Mount } from './sandbox.ts';

/** The system, read-only: programs, libraries and /etc (with its secrets masked below). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];
/** Readable by root even in a user namespace: masked whatever user fixloop runs as. */
const MASKED_FILES = ['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-'];
const MASKED_DIRS = ['/etc/ssh', '/etc/ssl/private'];

export const SANDBOX_HOME = '/tmp/home';

export interface BwrapPlan {
  command: string[];
  cwd: string;
  env: Record<string, string>;
  /** Host directories with tools the tests need (Node's own bin folder, FIXLOOP_SANDBOX_BIND), read-only. */
  toolDirs: string[];
  mounts: Mount[];
  network: boolean;
  tmpBytes: number;
}

export function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The parent's PATH, keeping only folders the sandbox can see, with the tool folders first. */
export function sandboxPath(parentPath: string, toolDirs: string[]): string {
  const visible = [...SYSTEM_DIRS, ...toolDirs];
  const kept = parentPath.split(delimiter).filter((p) => isAbsolute(p) && visible.some((d) => isUnder(resolve(p), d)));
  return [...new Set([...toolDirs, ...kept, '/usr/local/bin', '/usr/bin', '/bin'])].join(delimiter);
}

export function bwrapArgs(plan: BwrapPlan): string[] {
  const args = ['--unshare-all', ...(plan.network ? ['--share-net'] : []), '--die-with-parent', '--new-session', '--hostname', 'fixloop-sandbox', '--cap-drop', 'ALL'];
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue;
    // Merged-/usr systems have /bin -> usr/bin: recreate the link instead of binding twice.
    if (lstatSync(dir).isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else args.push('--ro-bind', dir, dir);
  }
  for (const file of MASKED_FILES) if (existsSync(file)) args.push('--ro-bind', '/dev/null', file);
  for (const dir of MASKED_DIRS) if (existsSync(dir)) args.push('--tmpfs', dir);
  args.push('--proc', '/proc', '--dev', '/dev', '--size', String(plan.tmpBytes), '--tmpfs', '/tmp', '--dir', SANDBOX_HOME);
  for (const dir of plan.toolDirs) args.push('--ro-bind', dir, dir);
  args.push('--bind', resolve(plan.cwd), resolve(plan.cwd));
  for (const mount of plan.mounts) args.push(mount.writable ? '--bind' : '--ro-bind', resolve(mount.path), resolve(mount.path));
  args.push('--clearenv');
  for (const [key, value] of Object.entries(plan.env)) args.push('--setenv', key, value);
  args.push('--chdir', plan.cwd, '--', ...plan.command);
  return args;
}
