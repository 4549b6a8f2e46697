import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGate } from '../../src/gate/run-gate.ts';
import { bwrapWorks, createBwrapSandbox } from '../../src/sandbox/bwrap-sandbox.ts';
import { defaultRepoConfig } from '../../src/core/repo-config.ts';
import { applyPatch, cloneMirror, createWorkspace } from '../../src/workspace/create-workspace.ts';
import { PathPolicyError } from '../../src/workspace/local-workspace.ts';
import { readOnlyTreeMounts } from '../../src/workspace/tool-caches.ts';
import { createPathPolicy } from '../../src/workspace/path-policy.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));
const policy = createPathPolicy(defaultRepoConfig().paths);

async function workspaceOf(files: Record<string, string>) {
  const source = await makeRepo(files);
  const tmpRoot = await mkdtemp(join(tmpdir(), 'fixloop-ws-'));
  dirs.push(source, tmpRoot);
  return { source, tmpRoot, ...(await createWorkspace({ source, ref: null, sha: null, tmpRoot, policy })) };
}

const FILES = {
  '.gitignore': 'build/\n*.log\n',
  'src/a.js': 'export const a = 1;\n',
  'src/no-newline.js': 'export const b = 2;',
  'src/empty.js': '',
  'bin/run.sh': '#!/bin/sh\necho run\n',
  'test/a.test.js': 'test\n',
};

describe('LocalWorkspace', () => {
  it('detects created, modified and deleted files against the baseline, ignoring ignored and generated ones', async () => {
    const { workspace } = await workspaceOf(FILES);
    expect(await workspace.changes()).toEqual([]);
    writeFileSync(join(workspace.root, 'generated.txt'), 'made by setup');
    await workspace.markEnvironment();
    await workspace.writeFile('src/a.js', 'export const a = 10;\nexport const c = 3;\n');
    await workspace.writeFile('src/new.js', 'new\n');
    await workspace.deleteFile('src/empty.js');
    writeFileSync(join(workspace.root, 'debug.log'), 'ignored');
    execFileSync('mkdir', ['-p', join(workspace.root, 'build', 'x')]);
    writeFileSync(join(workspace.root, 'build', 'x', 'out.js'), 'ignored');
    expect(await workspace.changes()).toEqual([
      { path: 'src/a.js', kind: 'modified', added: 2, removed: 1, binary: false },
      { path: 'src/empty.js', kind: 'deleted', added: 0, removed: 0, binary: false },
      { path: 'src/new.js', kind: 'created', added: 1, removed: 0, binary: false },
    ]);
    expect(await workspace.listFiles()).not.toContain('generated.txt');
  });

  it('produces a diff that git apply reproduces exactly on a pristine checkout', async () => {
    const { workspace, mirror, tmpRoot } = await workspaceOf(FILES);
    await workspace.writeFile('src/a.js', 'export const a = 1;\nexport const z = 26;\n');
    await workspace.writeFile('src/no-newline.js', 'export const b = 3;');
    await workspace.writeFile('src/created-empty.js', '');
    await workspace.deleteFile('src/empty.js');
    await workspace.writeFile('src/deep/new.js', 'line\n');
    const patch = await workspace.diff();
    expect(patch).toContain('\\ No newline at end of file');
    const pristine = await cloneMirror(mirror, workspace.baseSha, join(tmpRoot, 'pristine'));
    await applyPatch(pristine, patch);
    for (const file of ['src/a.js', 'src/no-newline.js', 'src/deep/new.js', 'src/created-empty.js']) {
      expect(readFileSync(join(pristine, file), 'utf8'), file).toBe(readFileSync(join(workspace.root, file), 'utf8'));
    }
    expect(existsSync(join(pristine, 'src/empty.js'))).toBe(false);
    expect(await workspace.diff()).toBe(patch);
  });

  it('refuses writes outside the policy: protected tests, workflows, .git, `..`, absolute paths, symlink escapes', async () => {
    const { workspace } = await workspaceOf(FILES);
    const outside = await mkdtemp(join(tmpdir(), 'fixloop-outside-'));
    dirs.push(outside);
    symlinkSync(outside, join(workspace.root, 'src', 'escape'));
    for (const path of [
      'test/a.test.js',
      '.github/workflows/ci.yml',
      '.git/config',
      '../x.js',
      '/etc/passwd',
      'src/escape/pwned.js',
    ]) {
      await expect(workspace.writeFile(path, 'x'), path).rejects.toBeInstanceOf(PathPolicyError);
    }
    expect(existsSync(join(outside, 'pwned.js'))).toBe(false);
    await expect(workspace.readFile('src/escape/../../etc/hostname')).rejects.toBeInstanceOf(PathPolicyError);
  });

  it('restores snapshots, and forks copies that change independently', async () => {
    const { workspace } = await workspaceOf(FILES);
    await workspace.writeFile('src/a.js', 'one\n');
    const snap = await workspace.snapshot();
    await workspace.writeFile('src/a.js', 'two\n');
    await workspace.writeFile('src/extra.js', 'extra\n');
    await workspace.deleteFile('bin/run.sh');
    await workspace.restore(snap);
    expect(readFileSync(join(workspace.root, 'src/a.js'), 'utf8')).toBe('one\n');
    expect(existsSync(join(workspace.root, 'src/extra.js'))).toBe(false);
    expect(readFileSync(join(workspace.root, 'bin/run.sh'), 'utf8')).toContain('echo run');
    const fork = await workspace.fork();
    await fork.writeFile('src/a.js', 'fork\n');
    expect(readFileSync(join(workspace.root, 'src/a.js'), 'utf8')).toBe('one\n');
    expect((await fork.changes()).map((c) => c.path)).toEqual(['src/a.js']);
    await fork.dispose();
    expect(existsSync(fork.root)).toBe(false);
    expect(existsSync(workspace.root)).toBe(true);
  });

  it('does not run hooks or fsmonitor planted in the work tree when it computes changes', async () => {
    const { workspace } = await workspaceOf(FILES);
    const marker = join(workspace.root, '..', 'hook-ran');
    writeFileSync(join(workspace.root, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    git(workspace.root, 'config', 'core.fsmonitor', `touch ${marker}`);
    await workspace.writeFile('src/a.js', 'changed\n');
    await workspace.changes();
    await workspace.diff();
    expect(existsSync(marker)).toBe(false);
  });

  it('imports a plain folder that is not a repository, and names a missing one', async () => {
    const folder = await makeRepo({ 'main.py': 'print(1)\n', 'node_modules/x/index.js': 'skip' }, { git: false });
    const tmpRoot = await mkdtemp(join(tmpdir(), 'fixloop-ws-'));
    dirs.push(folder, tmpRoot);
    const { workspace } = await createWorkspace({ source: folder, ref: null, sha: null, tmpRoot, policy });
    expect(await workspace.listFiles()).toEqual(['main.py']);
    await expect(
      createWorkspace({ source: join(folder, 'nope'), ref: null, sha: null, tmpRoot: join(tmpRoot, 'b'), policy }),
    ).rejects.toMatchObject({ code: 'REPO_NOT_FOUND' });
    await rm(join(tmpRoot, 'b'), { recursive: true, force: true });
  });
});

// CI installs bubblewrap and sets FIXLOOP_REQUIRE_BWRAP: there, this must not be skipped.
describe.runIf(bwrapWorks() || process.env.FIXLOOP_REQUIRE_BWRAP === '1')('a fork under bwrap', () => {
  it("sees the installed dependencies it links from its workspace, read-only (a sandbox showing only the fork's folder saw none)", async () => {
    const { workspace } = await workspaceOf({ '.gitignore': 'node_modules/\n', 'src/a.js': "console.log(require('answer'));\n" });
    execFileSync('mkdir', ['-p', join(workspace.root, 'node_modules/answer')]);
    writeFileSync(join(workspace.root, 'node_modules/answer/index.js'), 'module.exports = 42;\n');
    const fork = await workspace.fork();
    try {
      expect(fork.linkedFolders).toEqual([join(workspace.root, 'node_modules')]);
      const sandbox = createBwrapSandbox();
      const command =
        'node src/a.js; echo x > node_modules/answer/index.js || echo refused; echo {} > node_modules/.vite/results.json && echo cached; mkdir node_modules/.vitest/deps && echo old-cached';
      const shown = await runGate(sandbox, {
        command,
        cwd: fork.root,
        timeoutMs: 20_000,
        mounts: fork.linkedFolders.flatMap(readOnlyTreeMounts),
      });
      expect(shown.output).toContain('42');
      expect(shown.output).toContain('refused');
      // vitest 1 to 3 fail a run that cannot write their results cache: the fork writes scratch space.
      expect(shown.output).toContain('cached');
      // vitest before 1.4 keeps its caches in `.vitest`, and fails the run when it cannot remove them.
      expect(shown.output).toContain('old-cached');
      expect(existsSync(join(workspace.root, 'node_modules/.vite/results.json'))).toBe(false);
      expect(existsSync(join(workspace.root, 'node_modules/.vitest/deps'))).toBe(false);
      const hidden = await runGate(sandbox, { command: 'node src/a.js', cwd: fork.root, timeoutMs: 20_000 });
      expect(hidden.output).toMatch(/Cannot find module 'answer'/);
    } finally {
      await fork.dispose();
    }
  });

  it('links the same saved tree as its workspace when the workspace links one', async () => {
    const { workspace, tmpRoot } = await workspaceOf({
      '.gitignore': 'node_modules/\n',
      'src/a.js': "console.log(require('answer'));\n",
    });
    const saved = join(tmpRoot, 'saved-tree', 'node_modules');
    execFileSync('mkdir', ['-p', join(saved, 'answer')]);
    writeFileSync(join(saved, 'answer/index.js'), 'module.exports = 42;\n');
    symlinkSync(saved, join(workspace.root, 'node_modules'));
    const fork = await workspace.fork();
    try {
      expect(readlinkSync(join(fork.root, 'node_modules'))).toBe(saved);
      const shown = await runGate(createBwrapSandbox(), {
        command: 'node src/a.js',
        cwd: fork.root,
        timeoutMs: 20_000,
        mounts: [{ path: saved }],
      });
      expect(shown.output).toContain('42');
    } finally {
      await fork.dispose();
    }
  });
});
