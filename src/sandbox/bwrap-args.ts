// The bubblewrap command line for one sandboxed command (pure, so each isolation rule is testable):
// a read-only system, the working directory writable, a private /tmp and HOME, nothing else of the
// host's files; new user, PID, network, IPC and UTS namespaces; a cleared environment.
import { existsSync, lstatSync, readlinkSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isUnder, MASKED_PATHS, SYSTEM_DIRS } from './bind-guard.ts';
import type { Mount } from './sandbox.ts';

export { isUnder } from './bind-guard.ts';

export const SANDBOX_HOME = '/tmp/home';

export interface BwrapPlan {
  command: string[];
  cwd: string;
  env: Record<string, string>;
  /**
   * Host folders (or files) with tools the tests need, read-only: Node's own bin folder,
   * FIXLOOP_SANDBOX_BIND, the toolchains the commands resolve and the package managers' settings.
   */
  toolDirs: string[];
  /** Symlinks recreated inside (a PATH entry that links into a toolchain whose folder is not shown). */
  links?: Array<{ path: string; target: string }>;
  mounts: Mount[];
  network: boolean;
  /** RunCommandOptions.ownInit: the command as PID 1, no reaper of bwrap's. */
  ownInit?: boolean;
  tmpBytes: number;
  /** A host folder bound as /tmp instead of an empty one (RunCommandOptions.tmpDir). */
  tmpDir?: string;
  /** Folders inside `toolDirs` covered by an empty one (bind-guard.ts's `covered`). */
  covered?: string[];
}

/**
 * The parent's PATH, keeping only folders the sandbox can see, in the parent's order, with the tool
 * folders first. `alsoVisible` are folders shown without leading the PATH (toolchain prefixes).
 */
export function sandboxPath(parentPath: string, toolDirs: string[], alsoVisible: string[] = []): string {
  const visible = [...SYSTEM_DIRS, ...toolDirs, ...alsoVisible];
  const kept = parentPath.split(delimiter).filter((p) => isAbsolute(p) && visible.some((d) => isUnder(resolve(p), d)));
  return [...new Set([...toolDirs, ...kept, '/usr/local/bin', '/usr/bin', '/bin'])].join(delimiter);
}

/**
 * A link under /tmp that an earlier command made in the kept /tmp (RunCommandOptions.tmpDir) is there
 * already: bwrap would refuse to make it again ("File exists").
 */
function inKeptTmp(path: string, tmpDir: string | undefined): boolean {
  if (!tmpDir || !isUnder(path, '/tmp')) return false;
  return lstatSync(join(resolve(tmpDir), relative('/tmp', path)), { throwIfNoEntry: false })?.isSymbolicLink() === true;
}

export function bwrapArgs(plan: BwrapPlan): string[] {
  const args = [
    '--unshare-all',
    ...(plan.network ? ['--share-net'] : []),
    ...(plan.ownInit ? ['--as-pid-1'] : []),
    '--die-with-parent',
    '--new-session',
    '--hostname',
    'fixloop-sandbox',
    '--cap-drop',
    'ALL',
  ];
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue;
    // Merged-/usr systems have /bin -> usr/bin: recreate the link instead of binding twice.
    if (lstatSync(dir).isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else args.push('--ro-bind', dir, dir);
  }
  // Readable by root even in a user namespace: masked whatever user fixloop runs as.
  for (const path of MASKED_PATHS) {
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) args.push('--tmpfs', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  // A kept /tmp still gets an empty HOME: what one candidate's run leaves in its home never reaches
  // the next (Python writes no bytecode at all: environment.ts).
  const tmp = plan.tmpDir
    ? ['--bind', resolve(plan.tmpDir), '/tmp', '--size', String(plan.tmpBytes), '--tmpfs', SANDBOX_HOME]
    : ['--size', String(plan.tmpBytes), '--tmpfs', '/tmp'];
  // /var/tmp too, a scratch folder of its own: every machine a program is run on has one, and a
  // sandbox without it is told apart by the code it runs (a fix made only where it is missing).
  const varTmp = ['--size', String(plan.tmpBytes), '--tmpfs', '/var/tmp'];
  args.push('--proc', '/proc', '--dev', '/dev', ...tmp, ...varTmp, '--dir', SANDBOX_HOME);
  for (const dir of plan.toolDirs) args.push('--ro-bind', dir, dir);
  for (const dir of plan.covered ?? [])
    if (plan.toolDirs.some((d) => isUnder(dir, d)) && existsSync(dir)) args.push('--tmpfs', dir);
  // A link whose folder is shown already is there: recreating it would fail on a read-only bind.
  const shown = [...SYSTEM_DIRS, ...plan.toolDirs];
  for (const link of plan.links ?? []) {
    if (shown.some((d) => isUnder(dirname(link.path), d)) || inKeptTmp(link.path, plan.tmpDir)) continue;
    args.push('--symlink', link.target, link.path);
  }
  args.push('--bind', resolve(plan.cwd), resolve(plan.cwd));
  for (const mount of plan.mounts) {
    // A scratch folder's mount point must exist: bwrap cannot make one inside a read-only tree.
    if (mount.scratch) {
      if (statSync(mount.path, { throwIfNoEntry: false })?.isDirectory())
        args.push('--size', String(plan.tmpBytes), '--tmpfs', resolve(mount.path));
    } else args.push(mount.writable ? '--bind' : '--ro-bind', resolve(mount.path), resolve(mount.path));
  }
  args.push('--clearenv');
  for (const [key, value] of Object.entries(plan.env)) args.push('--setenv', key, value);
  args.push('--chdir', plan.cwd, '--', ...plan.command);
  return args;
}
