// git on the user's own folders (a local repository fixloop reads, the tree `--apply` writes): the
// same hardening as git.ts, no enclosing repository found above the folder, and never a write the
// user did not ask for. GIT_OPTIONAL_LOCKS=0 keeps `git status` and `git diff` from refreshing the
// user's index, so reading a repository leaves its `.git` exactly as it was.
import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { gitEnvironment } from './git.ts';

export interface PlainGitOptions {
  /** Extra variables (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE for a snapshot into the mirror). */
  env?: Record<string, string>;
  /** Written to git's stdin. */
  input?: string;
}

export class PlainGitError extends Error {
  readonly exitCode: number | null;
  constructor(message: string, exitCode: number | null) {
    super(message);
    this.exitCode = exitCode;
  }
}

export function plainGit(dir: string, args: string[], options: PlainGitOptions = {}): Promise<string> {
  const argv = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      argv,
      { cwd: dir, env: gitEnvironment({ GIT_OPTIONAL_LOCKS: '0', ...options.env }), maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new PlainGitError(stderr.trim() || error.message, typeof error.code === 'number' ? error.code : null));
        else resolve(stdout);
      },
    );
    // git may exit before it reads its input (an error, a command that reads none): not a failure of its own.
    child.stdin?.on('error', () => undefined);
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

export async function gitTopLevel(dir: string): Promise<string | null> {
  try {
    return (await plainGit(dir, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    return null;
  }
}

/** Whether `dir` is the top of a (non-bare) repository's working tree: the folder a snapshot is taken of. */
export async function isRepositoryTop(dir: string): Promise<boolean> {
  const top = await gitTopLevel(dir);
  return top !== null && (await realpath(top)) === (await realpath(dir));
}
