// An in-memory Workspace for unit tests of the loop's state machine (the real one is tested on real git).
import type { Snapshot, Workspace } from '../../src/workspace/workspace.ts';
import type { FileChange } from '../../src/core/file-change.ts';

export class MemoryWorkspace implements Workspace {
  readonly root = '/memory';
  readonly baseSha = '0'.repeat(40);
  readonly linkedFolders: readonly string[] = [];
  readonly files: Map<string, string>;
  private readonly baseline: Map<string, string>;
  private counter = 0;

  constructor(files: Record<string, string>) {
    this.baseline = new Map(Object.entries(files));
    this.files = new Map(this.baseline);
  }

  async readFile(path: string): Promise<string> {
    const content = this.files.get(path);
    if (content === undefined) throw new Error(`no such file ${path}`);
    return content;
  }
  async writeFile(path: string, content: string): Promise<void> {
    this.files.set(path, content);
  }
  async deleteFile(path: string): Promise<void> {
    this.files.delete(path);
  }
  async listFiles(): Promise<string[]> {
    return [...this.files.keys()].sort();
  }
  async changes(): Promise<FileChange[]> {
    const out: FileChange[] = [];
    for (const path of new Set([...this.baseline.keys(), ...this.files.keys()])) {
      const before = this.baseline.get(path);
      const after = this.files.get(path);
      if (before === after) continue;
      const kind = before === undefined ? 'created' : after === undefined ? 'deleted' : 'modified';
      out.push({ path, kind, added: after === undefined ? 0 : 1, removed: before === undefined ? 0 : 1, binary: false });
    }
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }
  async diff(): Promise<string> {
    return (await this.changes()).map((c) => `${c.kind} ${c.path}: ${this.files.get(c.path) ?? ''}\n`).join('');
  }
  async markEnvironment(): Promise<void> {}
  async snapshot(): Promise<Snapshot> {
    const files = new Map<string, Buffer | null>();
    for (const c of await this.changes())
      files.set(c.path, c.kind === 'deleted' ? null : Buffer.from(this.files.get(c.path) ?? ''));
    return { id: `s${++this.counter}`, files };
  }
  async restore(snapshot: Snapshot): Promise<void> {
    this.files.clear();
    for (const [k, v] of this.baseline) this.files.set(k, v);
    for (const [k, v] of snapshot.files) {
      if (v === null) this.files.delete(k);
      else this.files.set(k, v.toString());
    }
  }
  /** No path policy here: the loop's constraints are checked from `changes()`. */
  withPolicy(): Workspace {
    return this;
  }
  async fork(): Promise<Workspace> {
    throw new Error('not needed by the loop');
  }
  async dispose(): Promise<void> {}
}
