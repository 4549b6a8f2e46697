// Creates a run's workspace: a trusted bare mirror of the source, and a work tree cloned from it.
// Also the patch operations on other trees: the pristine replay checkout and the user's own tree.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { CloneAuth } from '../core/clone-auth.ts';
import { createIgnore, walkFiles } from './file-walker.ts';
import { git, gitEnvironment, gitMessage } from './git.ts';
import { LocalWorkspace } from './local-workspace.ts';
import { sealMirror, type MirrorSeal } from './mirror-seal.ts';
import type { PathPolicy } from './path-policy.ts';
import type { Workspace } from './workspace.ts';
import { WorkspaceError } from './workspace-error.ts';

const run = promisify(execFile);

export interface CreateWorkspaceOptions {
  source: string;
  ref: string | null;
  sha: string | null;
  /** A directory of the run's own; the mirror and the work tree are made inside it. */
  tmpRoot: string;
  auth?: CloneAuth;
  policy: PathPolicy;
}

export interface CreatedWorkspace {
  workspace: Workspace;
  /** The bare mirror: the trusted copy untrusted code never touches. */
  mirror: string;
  /** The mirror as it was cloned: checked before it is used again (the `process` backend cannot hide it). */
  seal: MirrorSeal;
  /** A local repository had uncommitted changes, which are not part of the workspace. */
  dirty: boolean;
}

const URL_LIKE = /^(https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|[\w.-]+@[\w.-]+:)/;

/** Runs git where it must not find an enclosing repository (the ceiling is the folder's parent). */
async function plainGit(dir: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args], {
    cwd: dir,
    env: gitEnvironment(),
    maxBuffer: 256 * 1024 * 1024,
  });
  return stdout;
}

async function gitTopLevel(dir: string): Promise<string | null> {
  try {
    return (await plainGit(dir, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    return null;
  }
}

async function isBareRepository(dir: string): Promise<boolean> {
  if (!existsSync(join(dir, 'HEAD')) || !existsSync(join(dir, 'objects'))) return false;
  try {
    return (await plainGit(dir, ['rev-parse', '--is-bare-repository'])).trim() === 'true';
  } catch {
    return false;
  }
}

/** Copies a plain folder (or a sub-folder of a repository) into a new repository with one commit. */
async function importFolder(source: string, target: string): Promise<void> {
  await mkdir(target, { recursive: true });
  let files: string[];
  if (await gitTopLevel(source)) {
    const out = await plainGit(source, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.']);
    files = out.split('\0').filter((f) => f && existsSync(join(source, f)));
  } else {
    files = await walkFiles(source, createIgnore(null));
  }
  for (const file of files) {
    await mkdir(dirname(join(target, file)), { recursive: true });
    await cp(join(source, file), join(target, file), { verbatimSymlinks: true });
  }
  const g = git(target);
  await g.init();
  await g.add(['-A']);
  await g.commit(`fixloop: import of ${basename(source)}`, { '--allow-empty': null });
}

export async function createWorkspace(options: CreateWorkspaceOptions): Promise<CreatedWorkspace> {
  const mirror = join(options.tmpRoot, 'mirror.git');
  const work = join(options.tmpRoot, 'work');
  let dirty = false;
  let cloneSource = options.source;

  if (!URL_LIKE.test(options.source)) {
    const info = await stat(options.source).catch(() => null);
    if (!info?.isDirectory()) throw new WorkspaceError('REPO_NOT_FOUND', `repository \`${options.source}\` not found (no such directory)`);
    const source = await realpath(options.source);
    const top = await gitTopLevel(source);
    if (await isBareRepository(source)) {
      // A bare repository (a local remote): cloned as it is, never imported as a folder of files.
      cloneSource = source;
    } else if (top !== null && (await realpath(top)) === source) {
      dirty = (await plainGit(source, ['status', '--porcelain', '--untracked-files=no'])).trim().length > 0;
      cloneSource = source;
    } else {
      cloneSource = join(options.tmpRoot, 'import');
      await importFolder(source, cloneSource);
    }
  }

  try {
    await git(options.tmpRoot, options.auth ? { auth: options.auth } : {}).clone(cloneSource, mirror, ['--bare', '--quiet']);
  } catch (error) {
    throw new WorkspaceError('CLONE_FAILED', `could not clone \`${options.source}\`: ${gitMessage(error)}`);
  }
  if (cloneSource !== options.source && !URL_LIKE.test(options.source) && cloneSource.endsWith('import')) await rm(cloneSource, { recursive: true, force: true });

  // Sealed before anything else happens: nothing of the repository has run yet.
  const seal = await sealMirror(mirror);
  // --no-hardlinks: the work tree's objects must not be the mirror's files.
  await git(options.tmpRoot).clone(mirror, work, ['--no-hardlinks', '--quiet', '--no-checkout']);
  const target = options.sha ?? (options.ref ? `origin/${options.ref}` : 'HEAD');
  const wg = git(work);
  try {
    await wg.raw(['checkout', '--quiet', '--detach', target]);
  } catch (error) {
    // A ref may be a tag or a sha prefix rather than a branch.
    const fallback = options.ref && !options.sha ? options.ref : null;
    if (!fallback) throw new WorkspaceError('REF_NOT_FOUND', `\`${target}\` was not found in \`${options.source}\`: ${gitMessage(error)}`);
    await wg.raw(['checkout', '--quiet', '--detach', fallback]).catch((e: unknown) => {
      throw new WorkspaceError('REF_NOT_FOUND', `\`${fallback}\` was not found in \`${options.source}\`: ${gitMessage(e)}`);
    });
  }
  const sha = (await wg.revparse(['HEAD'])).trim();
  // Read while the tree is still trusted: nothing has run in it yet.
  const gitignore = await readFile(join(work, '.gitignore'), 'utf8').catch(() => null);
  const workspace = await LocalWorkspace.open(work, mirror, sha, createIgnore(gitignore), options.policy);
  return { workspace, mirror, seal, dirty };
}

/** A fresh pristine checkout of `sha` from the mirror (for the verification replay); a broken seal refuses it. */
export async function cloneMirror(mirror: string, sha: string, dest: string, seal?: MirrorSeal): Promise<string> {
  await seal?.verify();
  await git(dirname(dest)).clone(mirror, dest, ['--no-hardlinks', '--quiet', '--no-checkout']);
  await git(dest).raw(['checkout', '--quiet', '--detach', sha]);
  return dest;
}

function touchedFiles(patch: string): string[] {
  const files = new Set<string>();
  for (const m of patch.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gm)) {
    if (m[1]) files.add(m[1]);
    if (m[2]) files.add(m[2]);
  }
  return [...files];
}

async function gitApply(dir: string, patch: string, check: boolean, ceiling: boolean): Promise<void> {
  const args = ['-c', 'core.hooksPath=/dev/null', 'apply', '--whitespace=nowarn', ...(check ? ['--check'] : []), '-'];
  await new Promise<void>((resolve, reject) => {
    const child = execFile('git', args, { cwd: dir, env: gitEnvironment(ceiling ? { GIT_CEILING_DIRECTORIES: dirname(dir) } : {}) }, (error, _stdout, stderr) => {
      if (error) reject(new Error(stderr.trim() || error.message));
      else resolve();
    });
    child.stdin?.end(patch);
  });
}

/** Applies a patch to a checkout fixloop made itself (`git apply --check` first). */
export async function applyPatch(dir: string, patch: string): Promise<void> {
  if (!patch.trim()) return;
  try {
    await gitApply(dir, patch, true, false);
    await gitApply(dir, patch, false, false);
  } catch (error) {
    throw new WorkspaceError('PATCH_DOES_NOT_APPLY', `the patch does not apply (${touchedFiles(patch).join(', ')}): ${gitMessage(error)}`);
  }
}

/**
 * `--apply`: the verified patch onto the user's own working tree. Refused when a file it touches has
 * uncommitted changes, or when it does not apply cleanly; the tree is left as it was.
 */
/**
 * Tracked files with uncommitted changes in a repository's working tree (empty outside the top of a
 * repository, whose folder is imported as it is). The run works on the last commit, so `--apply`
 * can only put its patch back onto a tree that has none: checked before the run, not after it.
 */
export async function uncommittedChanges(dir: string): Promise<string[]> {
  const source = await realpath(dir);
  const top = await gitTopLevel(source);
  if (top === null || (await realpath(top)) !== source) return [];
  const out = await plainGit(source, ['status', '--porcelain', '-z', '--untracked-files=no']);
  return out.split('\0').filter(Boolean).map((entry) => entry.slice(3));
}

export async function applyPatchToUserTree(dir: string, patch: string): Promise<void> {
  if (!patch.trim()) return;
  const source = await realpath(dir);
  const top = await gitTopLevel(source);
  const isTop = top !== null && (await realpath(top)) === source;
  const files = touchedFiles(patch);
  if (isTop) {
    const changed = (await plainGit(source, ['status', '--porcelain', '--', ...files])).trim();
    if (changed) throw new WorkspaceError('APPLY_CONFLICT', `the working tree has uncommitted changes to ${files.join(', ')}: commit or stash them first`);
  }
  try {
    // Outside the top of a repository, git apply works as a plain patch program on the folder.
    await gitApply(source, patch, true, !isTop);
    await gitApply(source, patch, false, !isTop);
  } catch (error) {
    throw new WorkspaceError('APPLY_CONFLICT', `the patch does not apply to ${dir} (${files.join(', ')}): ${gitMessage(error)}`);
  }
}
