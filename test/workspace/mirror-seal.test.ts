// The trusted copy stays trusted: the mirror is sealed when it is cloned, and any write into it by
// the repository's code afterwards (as the `process` backend allows) refuses the replay.
import { appendFile, link, mkdtemp, rm, utimes, writeFile, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import { cloneMirror, createWorkspace } from '../../src/workspace/create-workspace.ts';
import { createPathPolicy } from '../../src/workspace/path-policy.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

async function workspaceOf() {
  const source = await makeRepo({ 'src/a.js': 'export const a = 1;\n', 'test/a.test.js': 'ok\n' });
  const tmpRoot = await mkdtemp(join(tmpdir(), 'fixloop-seal-'));
  dirs.push(source, tmpRoot);
  const policy = createPathPolicy(repoConfigSchema.parse({}).paths);
  return { source, tmpRoot, ...(await createWorkspace({ source, ref: null, sha: null, tmpRoot, policy })) };
}

async function firstFile(dir: string): Promise<string> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.parentPath.includes('objects')) return join(entry.parentPath, entry.name);
  }
  throw new Error('no object file');
}

describe('the mirror seal', () => {
  it("holds through fixloop's own use of the mirror: the work tree, diffs and a replay checkout", async () => {
    const { workspace, mirror, seal, tmpRoot } = await workspaceOf();
    await workspace.writeFile('src/a.js', 'export const a = 2;\n');
    expect(await workspace.diff()).toContain('+export const a = 2;');
    await cloneMirror(mirror, workspace.baseSha, join(tmpRoot, 'replay'), seal);
    await expect(seal.verify()).resolves.toBeUndefined();
  });

  // Another clone of the same local repository (a second run, a benchmark's next bug) links its
  // object files, and removing that clone unlinks them: each changes the files' change time. A mirror
  // that shared those files with its source would see its seal broken by an honest neighbour.
  it('holds while other clones of the same local repository link and unlink its object files', async () => {
    const { source, seal, tmpRoot } = await workspaceOf();
    const sourceObject = await firstFile(join(source, '.git'));
    await link(sourceObject, join(tmpRoot, 'neighbour-link'));
    await rm(join(tmpRoot, 'neighbour-link'));
    await expect(seal.verify()).resolves.toBeUndefined();
  });

  it('breaks when a file is added, changed or removed, even with its times set back', async () => {
    const added = await workspaceOf();
    await writeFile(join(added.mirror, 'refs', 'heads', 'planted'), `${added.workspace.baseSha}\n`);
    await expect(cloneMirror(added.mirror, added.workspace.baseSha, join(added.tmpRoot, 'replay'), added.seal)).rejects.toThrow(
      /trusted mirror .* changed .*planted was added/,
    );

    const changed = await workspaceOf();
    const object = await firstFile(changed.mirror);
    const before = await stat(object);
    await appendFile(object, '');
    await writeFile(object, await (await import('node:fs/promises')).readFile(object));
    await utimes(object, before.atime, before.mtime);
    await expect(changed.seal.verify()).rejects.toMatchObject({ code: 'MIRROR_CHANGED' });

    const removed = await workspaceOf();
    await rm(join(removed.mirror, 'HEAD'));
    await expect(removed.seal.verify()).rejects.toThrow(/HEAD was removed/);
  });
});
