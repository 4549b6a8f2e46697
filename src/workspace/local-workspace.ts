// The Workspace on the local file system. Change detection and diffs compare the files on disk
// with the baseline blobs of the trusted mirror; git never runs in this tree after creation.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, readlink, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import type { Ignore } from 'ignore';
import { CodedError } from '../core/coded-error.ts';
import type { Finding } from '../core/findings.ts';
import type { Snapshot, Workspace } from './workspace.ts';
import type { FileChange } from '../core/file-change.ts';
import { Baseline, gitBlobId } from './baseline.ts';
import { walkFiles } from './file-walker.ts';
import { forkTree } from './fork-tree.ts';
import { unsafePath, type PathPolicy } from './path-policy.ts';
import { fileDiff, isBinary, lineCounts } from './unified-diff.ts';

export class PathPolicyError extends CodedError<'PATH_REFUSED'> {
  readonly finding: Finding;
  constructor(finding: Finding) {
    super('PATH_REFUSED', finding.message);
    this.finding = finding;
  }
}

interface Shared {
  baseline: Baseline;
  ignore: Ignore;
  policy: PathPolicy;
}

export class LocalWorkspace implements Workspace {
  readonly root: string;
  private readonly shared: Shared;
  /** Untracked files made by setup or test runs: never reported as changes. */
  private readonly environment: Set<string>;
  readonly linkedFolders: readonly string[];

  constructor(root: string, shared: Shared, environment: Set<string> = new Set(), linkedFolders: readonly string[] = []) {
    this.root = root;
    this.shared = shared;
    this.environment = environment;
    this.linkedFolders = linkedFolders;
  }

  get baseSha(): string {
    return this.shared.baseline.sha;
  }

  /**
   * The absolute path of a repository path, refused when a symlink on the way leads outside. With
   * `replacing`, a symlink in the last place is not followed: the caller removes or replaces the link
   * itself, never writes through it.
   */
  private async resolveInside(path: string, replacing = false): Promise<string> {
    const unsafe = unsafePath(path);
    if (unsafe) throw new PathPolicyError({ kind: 'path_not_allowed', path, message: `\`${path}\` is ${unsafe}` });
    const absolute = join(this.root, path);
    // A symlink planted anywhere on the way must not lead outside the workspace.
    const realRoot = await realpath(this.root);
    const lastIsLink = replacing && (await lstat(absolute).catch(() => null))?.isSymbolicLink() === true;
    let probe = lastIsLink ? dirname(absolute) : absolute;
    for (;;) {
      const real = await realpath(probe).catch(() => null);
      if (real !== null) {
        if (real !== realRoot && !real.startsWith(realRoot + sep)) {
          throw new PathPolicyError({
            kind: 'path_not_allowed',
            path,
            message: `\`${path}\` leads outside the repository through a symlink`,
          });
        }
        break;
      }
      const parent = dirname(probe);
      if (parent === probe) break;
      probe = parent;
    }
    return absolute;
  }

  async readFile(path: string): Promise<string> {
    return readFile(await this.resolveInside(path), 'utf8');
  }

  private async checkWrite(path: string): Promise<string> {
    const absolute = await this.resolveInside(path, true);
    const finding = this.shared.policy.check(path);
    if (finding) throw new PathPolicyError(finding);
    return absolute;
  }

  async writeFile(path: string, content: string): Promise<void> {
    const absolute = await this.checkWrite(path);
    await mkdir(dirname(absolute), { recursive: true });
    // Replace a symlink instead of writing through it.
    const stat = await lstat(absolute).catch(() => null);
    if (stat?.isSymbolicLink()) await unlink(absolute);
    await writeFile(absolute, content);
  }

  async deleteFile(path: string): Promise<void> {
    await rm(await this.checkWrite(path), { force: true });
  }

  async listFiles(): Promise<string[]> {
    const files = new Set(await walkFiles(this.root, this.shared.ignore));
    for (const path of this.environment) files.delete(path);
    return [...files].sort();
  }

  async markEnvironment(): Promise<void> {
    for (const path of await walkFiles(this.root, this.shared.ignore)) {
      if (!this.shared.baseline.entries.has(path)) this.environment.add(path);
    }
  }

  /** The current bytes of a path (a symlink's target text), or null when it does not exist. */
  private async current(path: string): Promise<Buffer | null> {
    const absolute = join(this.root, path);
    const stat = await lstat(absolute).catch(() => null);
    if (!stat) return null;
    if (stat.isSymbolicLink()) return Buffer.from(await readlink(absolute));
    if (!stat.isFile()) return null;
    return readFile(absolute);
  }

  private async changedContents(): Promise<Map<string, { before: Buffer | null; after: Buffer | null; mode: string }>> {
    const out = new Map<string, { before: Buffer | null; after: Buffer | null; mode: string }>();
    const { baseline } = this.shared;
    for (const [path, entry] of baseline.entries) {
      const after = await this.current(path);
      if (after !== null && gitBlobId(after) === entry.blob) continue;
      out.set(path, { before: await baseline.content(path), after, mode: entry.mode });
    }
    for (const path of await walkFiles(this.root, this.shared.ignore)) {
      if (baseline.entries.has(path) || this.environment.has(path)) continue;
      const stat = await lstat(join(this.root, path));
      const mode = stat.isSymbolicLink() ? '120000' : stat.mode & 0o111 ? '100755' : '100644';
      out.set(path, { before: null, after: await this.current(path), mode });
    }
    return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  async changes(): Promise<FileChange[]> {
    const out: FileChange[] = [];
    for (const [path, { before, after }] of await this.changedContents()) {
      const kind = before === null ? 'created' : after === null ? 'deleted' : 'modified';
      const link = after !== null && (await lstat(join(this.root, path)).catch(() => null))?.isSymbolicLink() === true;
      out.push({
        path,
        kind,
        ...lineCounts(before, after),
        binary: isBinary(before) || isBinary(after),
        ...(link && after ? { symlinkTarget: after.toString() } : {}),
      });
    }
    return out;
  }

  async diff(): Promise<string> {
    const parts: string[] = [];
    for (const [path, { before, after, mode }] of await this.changedContents())
      parts.push(fileDiff({ path, before, after, mode }));
    return parts.join('');
  }

  async snapshot(): Promise<Snapshot> {
    const files = new Map<string, Buffer | null>();
    for (const [path, { after }] of await this.changedContents()) files.set(path, after);
    return { id: randomBytes(4).toString('hex'), files };
  }

  async restore(snapshot: Snapshot): Promise<void> {
    for (const [path] of await this.changedContents()) {
      if (snapshot.files.has(path)) continue;
      await this.put(path, await this.shared.baseline.content(path));
    }
    for (const [path, content] of snapshot.files) await this.put(path, content);
  }

  /** Writes bytes (or removes the file) without the policy: restoring is not a fix's change. */
  private async put(path: string, content: Buffer | null): Promise<void> {
    const absolute = await this.resolveInside(path, true);
    const stat = await lstat(absolute).catch(() => null);
    if (stat?.isSymbolicLink() || content === null) await rm(absolute, { force: true, recursive: stat?.isDirectory() ?? false });
    if (content === null) return;
    await mkdir(dirname(absolute), { recursive: true });
    if (this.shared.baseline.entries.get(path)?.mode === '120000') await symlink(content.toString(), absolute);
    else await writeFile(absolute, content);
  }

  withPolicy(policy: PathPolicy): Workspace {
    return new LocalWorkspace(this.root, { ...this.shared, policy }, this.environment, this.linkedFolders);
  }

  async fork(): Promise<Workspace> {
    const target = `${this.root}-fork-${randomBytes(3).toString('hex')}`;
    const linked = await forkTree(this.root, target);
    return new LocalWorkspace(target, this.shared, new Set(this.environment), [...this.linkedFolders, ...linked]);
  }

  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }

  static async open(root: string, mirror: string, sha: string, ignore: Ignore, policy: PathPolicy): Promise<LocalWorkspace> {
    return new LocalWorkspace(root, { baseline: await Baseline.load(mirror, sha), ignore, policy });
  }
}
