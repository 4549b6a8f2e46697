// A local repository's working tree as it is becomes a commit of fixloop's mirror: each kind of
// uncommitted change (modified, staged new, deleted, untracked, a symlink, a file taken out of the
// index), the same tree giving the same commit, HEAD when asked, and the user's repository left as
// it was. Real git repositories; `createWorkspace` as a run calls it.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoConfigSchema } from '../../src/core/repo-config.ts';
import { changedSinceStart } from '../../src/workspace/apply-to-user-tree.ts';
import { createWorkspace } from '../../src/workspace/create-workspace.ts';
import { createPathPolicy } from '../../src/workspace/path-policy.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

async function dirtyRepo(): Promise<string> {
  const source = await makeRepo({
    'src/a.js': 'a1\n',
    'src/gone.js': 'gone\n',
    'src/kept.js': 'kept\n',
    '.gitignore': 'ignored/\n',
  });
  dirs.push(source);
  await writeFile(join(source, 'src/a.js'), 'a2\n');
  await rm(join(source, 'src/gone.js'));
  await writeFile(join(source, 'src/staged.js'), 'staged\n');
  git(source, 'add', 'src/staged.js');
  await writeFile(join(source, 'notes.txt'), 'notes\n');
  await symlink('src/kept.js', join(source, 'link.js'));
  git(source, 'rm', '-q', '--cached', 'src/kept.js');
  await writeFile(join(source, 'ignored-file'), 'x\n');
  await writeFile(join(source, '.gitignore'), 'ignored/\nignored-file\n');
  return source;
}

async function open(source: string, workingTree: boolean) {
  const tmpRoot = await mkdtemp(join(tmpdir(), 'fixloop-snapshot-'));
  dirs.push(tmpRoot);
  const policy = createPathPolicy(repoConfigSchema.parse({}).paths);
  return createWorkspace({ source, ref: null, sha: null, tmpRoot, policy, workingTree });
}

function userState(dir: string) {
  return {
    status: git(dir, 'status', '--porcelain'),
    refs: git(dir, 'for-each-ref'),
    index: createHash('sha256')
      .update(readFileSync(join(dir, '.git/index')))
      .digest('hex'),
  };
}

describe('the working tree as a commit of the mirror', () => {
  it("takes every kind of uncommitted change, and leaves the user's repository as it was", async () => {
    const source = await dirtyRepo();
    const before = userState(source);
    const created = await open(source, true);
    const root = created.workspace.root;
    expect(await readFile(join(root, 'src/a.js'), 'utf8')).toBe('a2\n');
    expect(existsSync(join(root, 'src/gone.js'))).toBe(false);
    expect(await readFile(join(root, 'src/staged.js'), 'utf8')).toBe('staged\n');
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('notes\n');
    expect(await readlink(join(root, 'link.js'))).toBe('src/kept.js');
    expect(await readFile(join(root, 'src/kept.js'), 'utf8')).toBe('kept\n');
    expect(existsSync(join(root, 'ignored-file'))).toBe(false);
    const states = Object.fromEntries(created.workingTree?.files.map((f) => [f.path, f.state]) ?? []);
    expect(states).toEqual({
      '.gitignore': 'modified',
      'src/a.js': 'modified',
      'src/gone.js': 'deleted',
      'src/staged.js': 'added',
      'src/kept.js': 'untracked',
      'link.js': 'untracked',
      'notes.txt': 'untracked',
    });
    expect(created.workspace.baseSha).not.toBe(created.workingTree?.head);
    expect(git(created.mirror, 'rev-parse', `${created.workspace.baseSha}^`).trim()).toBe(
      git(source, 'rev-parse', 'HEAD').trim(),
    );
    expect(userState(source)).toEqual(before);
    // The same tree, the same commit: the snapshot's dates are HEAD's.
    expect((await open(source, true)).workspace.baseSha).toBe(created.workspace.baseSha);
  });

  it('starts from HEAD when asked, recording what it left out', async () => {
    const source = await dirtyRepo();
    const created = await open(source, false);
    expect(created.workspace.baseSha).toBe(git(source, 'rev-parse', 'HEAD').trim());
    expect(await readFile(join(created.workspace.root, 'src/a.js'), 'utf8')).toBe('a1\n');
    expect(existsSync(join(created.workspace.root, 'notes.txt'))).toBe(false);
    expect(created.workingTree).toMatchObject({ included: false });
    expect(created.workingTree?.files.length).toBe(7);
  });

  it('tells which files changed since the run started, against the recorded bytes or HEAD', async () => {
    const source = await dirtyRepo();
    const start = (await open(source, true)).workingTree;
    if (!start) throw new Error('no working tree recorded');
    const files = ['src/a.js', 'notes.txt', '.gitignore', 'src/new.js', 'src/gone.js'];
    expect(await changedSinceStart(source, files, start)).toEqual([]);
    await writeFile(join(source, 'src/a.js'), 'a3\n');
    await writeFile(join(source, 'src/new.js'), 'new\n');
    expect(await changedSinceStart(source, files, start)).toEqual(['src/a.js', 'src/new.js']);
    // From HEAD: a file dirty when the run started is not as HEAD has it.
    const fromHead = (await open(source, false)).workingTree;
    if (!fromHead) throw new Error('no working tree recorded');
    expect(await changedSinceStart(source, ['src/a.js', 'package.json'], fromHead)).toEqual(['src/a.js']);
  });
});
