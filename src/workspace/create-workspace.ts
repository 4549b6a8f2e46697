// Creates a run's workspace: a trusted bare mirror of the source (a local working tree's changes
// become a commit of it: working-tree-snapshot.ts), and a work tree cloned from it. Also the pristine
// replay checkout; the patch operations are in apply-patch.ts and apply-to-user-tree.ts.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { CloneAuth } from '../core/clone-auth.ts';
import type { WorkingTreeStart } from '../core/working-tree.ts';
import { createIgnore, walkFiles } from './file-walker.ts';
import { git, gitEnvironment, gitMessage } from './git.ts';
import { LocalWorkspace } from './local-workspace.ts';
import { sealMirror, type MirrorSeal } from './mirror-seal.ts';
import type { PathPolicy } from './path-policy.ts';
import type { Workspace } from './workspace.ts';
import { WorkspaceError } from './workspace-error.ts';
import { gitTopLevel, isRepositoryTop, plainGit } from './plain-git.ts';
import { readWorkingTree, snapshotWorkingTree } from './working-tree-snapshot.ts';

export { applyPatch } from './apply-patch.ts';

export interface CreateWorkspaceOptions {
  source: string;
  ref: string | null;
  sha: string | null;
  /** A directory of the run's own; the mirror and the work tree are made inside it. */
  tmpRoot: string;
  auth?: CloneAuth;
  policy: PathPolicy;
  /**
   * A local folder's working tree as it is (uncommitted changes, untracked files git does not
   * ignore) is where the run starts; false: the repository's HEAD. Ignored for a URL, a bare
   * repository, or when `ref` or `sha` names the commit.
   */
  workingTree?: boolean;
}

export interface CreatedWorkspace {
  workspace: Workspace;
  /** The bare mirror: the trusted copy untrusted code never touches. */
  mirror: string;
  /** The mirror as it was cloned: checked before it is used again (the `process` backend cannot hide it). */
  seal: MirrorSeal;
  /** Where a local repository's run started (set for the top of a local working tree): what differed from HEAD, and whether it is part of the run. */
  workingTree: WorkingTreeStart | null;
}

const URL_LIKE = /^(https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|[\w.-]+@[\w.-]+:)/;

async function isBareRepository(dir: string): Promise<boolean> {
  if (!existsSync(join(dir, 'HEAD')) || !existsSync(join(dir, 'objects'))) return false;
  try {
    return (await plainGit(dir, ['rev-parse', '--is-bare-repository'])).trim() === 'true';
  } catch {
    return false;
  }
}

/**
 * Copies a plain folder (or a sub-folder of a repository: the files git does not ignore, as they are
 * on disk; `fromHead`: as HEAD has them) into a new repository with one commit.
 */
async function importFolder(source: string, target: string, fromHead: boolean): Promise<void> {
  await mkdir(target, { recursive: true });
  const top = await gitTopLevel(source);
  if (top !== null && fromHead) {
    const root = await realpath(top);
    await extractHead(root, relative(root, source), target);
  } else {
    let files: string[];
    if (top !== null) {
      const out = await plainGit(source, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.']);
      files = out.split('\0').filter((f) => f && existsSync(join(source, f)));
    } else {
      files = await walkFiles(source, createIgnore(null));
    }
    for (const file of files) {
      await mkdir(dirname(join(target, file)), { recursive: true });
      await cp(join(source, file), join(target, file), { verbatimSymlinks: true });
    }
  }
  const g = git(target);
  await g.init();
  await g.add(['-A']);
  await g.commit(`fixloop: import of ${basename(source)}`, { '--allow-empty': null });
}

/** The sub-folder `prefix` of HEAD of the repository at `top`, written into `target` (git archive, then tar). */
async function extractHead(top: string, prefix: string, target: string): Promise<void> {
  const tree = `HEAD:${prefix.split('\\').join('/')}`;
  const archive = await new Promise<Buffer>((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'core.hooksPath=/dev/null', 'archive', '--format=tar', tree],
      { cwd: top, env: gitEnvironment(), encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new WorkspaceError(
              'REF_NOT_FOUND',
              `\`${prefix}\` is not in HEAD of its repository (--head): ${stderr.toString().trim() || error.message}`,
            ),
          );
        else resolve(stdout);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    const child = execFile('tar', ['-x', '-f', '-', '-C', target], (error) => (error ? reject(error) : resolve()));
    child.stdin?.end(archive);
  });
}

interface CloneSource {
  path: string;
  /** A folder fixloop made (an import), removed once cloned. */
  temporary: boolean;
  /** The top of a local working tree: its snapshot is taken (or its changes recorded) once the mirror exists. */
  workTree: string | null;
}

async function cloneSourceOf(options: CreateWorkspaceOptions): Promise<CloneSource> {
  if (URL_LIKE.test(options.source)) return { path: options.source, temporary: false, workTree: null };
  const info = await stat(options.source).catch(() => null);
  if (!info?.isDirectory())
    throw new WorkspaceError('REPO_NOT_FOUND', `repository \`${options.source}\` not found (no such directory)`);
  const source = await realpath(options.source);
  // A bare repository (a local remote): cloned as it is, never imported as a folder of files.
  if (await isBareRepository(source)) return { path: source, temporary: false, workTree: null };
  if (await isRepositoryTop(source)) return { path: source, temporary: false, workTree: source };
  const imported = join(options.tmpRoot, 'import');
  await importFolder(source, imported, options.workingTree === false);
  return { path: imported, temporary: true, workTree: null };
}

export async function createWorkspace(options: CreateWorkspaceOptions): Promise<CreatedWorkspace> {
  const mirror = join(options.tmpRoot, 'mirror.git');
  const work = join(options.tmpRoot, 'work');
  const source = await cloneSourceOf(options);
  try {
    // --no-hardlinks: a local source's object files would otherwise be the mirror's too, and another
    // clone of that source linking or unlinking them changes their change time, breaking the seal.
    await git(options.tmpRoot, options.auth ? { auth: options.auth } : {}).clone(source.path, mirror, [
      '--bare',
      '--no-hardlinks',
      '--quiet',
    ]);
  } catch (error) {
    throw new WorkspaceError('CLONE_FAILED', `could not clone \`${options.source}\`: ${gitMessage(error)}`);
  }
  if (source.temporary) await rm(source.path, { recursive: true, force: true });

  // A named commit wins; otherwise a local repository starts from its working tree, or its HEAD.
  const named = options.sha !== null || options.ref !== null;
  const workingTree = source.workTree && !named ? await readWorkingTree(source.workTree, options.workingTree === true) : null;
  const snapshot =
    workingTree?.included && workingTree.files.length > 0
      ? await snapshotWorkingTree(source.workTree ?? '', mirror, workingTree, options.tmpRoot)
      : null;

  // Sealed before anything else happens: nothing of the repository has run yet.
  const seal = await sealMirror(mirror);
  // --no-hardlinks: the work tree's objects must not be the mirror's files.
  await git(options.tmpRoot).clone(mirror, work, ['--no-hardlinks', '--quiet', '--no-checkout']);
  const sha = await checkOut(work, options, snapshot ?? workingTree?.head ?? null);
  // Read while the tree is still trusted: nothing has run in it yet.
  const gitignore = await readFile(join(work, '.gitignore'), 'utf8').catch(() => null);
  const workspace = await LocalWorkspace.open(work, mirror, sha, createIgnore(gitignore), options.policy);
  return { workspace, mirror, seal, workingTree };
}

/** Checks out the commit the run starts from (`start`, else the request's sha or ref, else HEAD); returns its sha. */
async function checkOut(work: string, options: CreateWorkspaceOptions, start: string | null): Promise<string> {
  const target = start ?? options.sha ?? (options.ref ? `origin/${options.ref}` : 'HEAD');
  const wg = git(work);
  try {
    await wg.raw(['checkout', '--quiet', '--detach', target]);
  } catch (error) {
    // A ref may be a tag or a sha prefix rather than a branch.
    const fallback = options.ref && !options.sha ? options.ref : null;
    if (!fallback)
      throw new WorkspaceError('REF_NOT_FOUND', `\`${target}\` was not found in \`${options.source}\`: ${gitMessage(error)}`);
    await wg.raw(['checkout', '--quiet', '--detach', fallback]).catch((e: unknown) => {
      throw new WorkspaceError('REF_NOT_FOUND', `\`${fallback}\` was not found in \`${options.source}\`: ${gitMessage(e)}`);
    });
  }
  return (await wg.revparse(['HEAD'])).trim();
}

/** A fresh pristine checkout of `sha` from the mirror (for the verification replay); a broken seal refuses it. */
export async function cloneMirror(mirror: string, sha: string, dest: string, seal?: MirrorSeal): Promise<string> {
  await seal?.verify();
  await git(dirname(dest)).clone(mirror, dest, ['--no-hardlinks', '--quiet', '--no-checkout']);
  await git(dest).raw(['checkout', '--quiet', '--detach', sha]);
  return dest;
}
