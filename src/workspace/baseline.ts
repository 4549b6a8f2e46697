// The baseline of a workspace: the files of the commit being fixed, read from the trusted bare
// mirror (never from the work tree's own .git, which untrusted code may have rewritten).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gitEnvironment } from './git.ts';

const run = promisify(execFile);

export interface BaselineEntry {
  mode: string;
  /** git blob id: sha1("blob <size>\0<content>"). */
  blob: string;
}

export class Baseline {
  readonly sha: string;
  readonly entries: ReadonlyMap<string, BaselineEntry>;
  private readonly mirror: string;
  private readonly blobs = new Map<string, Buffer>();

  private constructor(mirror: string, sha: string, entries: Map<string, BaselineEntry>) {
    this.mirror = mirror;
    this.sha = sha;
    this.entries = entries;
  }

  static async load(mirror: string, sha: string): Promise<Baseline> {
    const { stdout } = await run(
      'git',
      ['-c', 'core.hooksPath=/dev/null', `--git-dir=${mirror}`, 'ls-tree', '-r', '-z', '--full-tree', sha],
      {
        env: gitEnvironment(),
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    const entries = new Map<string, BaselineEntry>();
    for (const record of stdout.split('\0')) {
      // "<mode> <type> <object>\t<path>"
      const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.+)$/s.exec(record);
      if (match?.[1] && match[2] === 'blob' && match[3] && match[4]) entries.set(match[4], { mode: match[1], blob: match[3] });
    }
    return new Baseline(mirror, sha, entries);
  }

  async content(path: string): Promise<Buffer | null> {
    const entry = this.entries.get(path);
    if (!entry) return null;
    const cached = this.blobs.get(entry.blob);
    if (cached) return cached;
    const { stdout } = await run('git', [`--git-dir=${this.mirror}`, 'cat-file', 'blob', entry.blob], {
      env: gitEnvironment(),
      encoding: 'buffer',
      maxBuffer: 256 * 1024 * 1024,
    });
    this.blobs.set(entry.blob, stdout);
    return stdout;
  }
}

export function gitBlobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}
