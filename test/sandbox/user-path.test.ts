// The user's PATH, on real folders laid out as npm leaves them: fixloop installed in a project
// (`<project>/node_modules/fixloop`) with its bundled Node hoisted beside it, a checkout whose
// node_modules is a link to another checkout's, npm's node-gyp-bin; the user's own folders kept in order.
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { selectSandbox } from '../../src/sandbox/select-sandbox.ts';
import { ownEntry, ownInstall, userPath, type OwnInstall } from '../../src/sandbox/user-path.ts';

let root: string;
let project: string;
let installed: OwnInstall;
let userBin: string;
let gypBin: string;

async function executable(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, '#!/bin/sh\necho fake\n');
  await chmod(path, 0o755);
}

beforeAll(async () => {
  root = realpathSync(await mkdtemp(join(tmpdir(), 'fixloop-user-path-')));
  project = join(root, 'project');
  // npm's layout for `npm install fixloop`: the package, its `node` dependency hoisted, the links in .bin.
  const pkg = join(project, 'node_modules', 'fixloop');
  await mkdir(pkg, { recursive: true });
  await writeFile(join(pkg, 'package.json'), '{ "name": "fixloop" }\n');
  await executable(join(project, 'node_modules', 'node', 'bin', 'node'));
  await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
  await symlink('../node/bin/node', join(project, 'node_modules', '.bin', 'node'));
  installed = { root: pkg, execPath: join(project, 'node_modules', 'node', 'bin', 'node') };
  userBin = join(root, 'user', 'bin');
  await executable(join(userBin, 'node'));
  gypBin = join(root, 'npm', 'node_modules', '@npmcli', 'run-script', 'lib', 'node-gyp-bin');
  await mkdir(gypBin, { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the user’s PATH', () => {
  it('drops what npx puts in front for an installed fixloop, and keeps the rest in its order', () => {
    const npx = [
      join(project, 'node_modules', 'fixloop', 'node_modules', '.bin'),
      join(project, 'node_modules', '.bin'),
      join(root, 'node_modules', '.bin'),
      '/node_modules/.bin',
      gypBin,
    ];
    const path = [...npx, userBin, '/usr/local/bin', '/usr/bin', '/bin'].join(':');
    expect(userPath(path, installed)).toBe([userBin, '/usr/local/bin', '/usr/bin', '/bin'].join(':'));
  });

  it('names why each entry is fixloop’s', () => {
    expect(ownEntry(join(project, 'node_modules', '.bin'), installed)).toBe("fixloop's node_modules/.bin");
    expect(ownEntry(gypBin, installed)).toBe("npm's node-gyp-bin");
    expect(ownEntry(join(project, 'node_modules', 'node', 'bin'), installed)).toBe("fixloop's bundled Node");
    expect(ownEntry(userBin, installed)).toBeNull();
    expect(ownEntry('/usr/bin', installed)).toBeNull();
  });

  it('keeps the folder of a Node that is not fixloop’s own, even when it runs fixloop', () => {
    const own = { ...installed, execPath: join(userBin, 'node') };
    expect(userPath(`${userBin}:/usr/bin`, own)).toBe(`${userBin}:/usr/bin`);
    // The bundled Node's folder is fixloop's only while that Node is the one running it.
    expect(userPath(`${join(project, 'node_modules', 'node', 'bin')}:/usr/bin`, own)).toBe(
      `${join(project, 'node_modules', 'node', 'bin')}:/usr/bin`,
    );
    expect(userPath(`${join(project, 'node_modules', 'node', 'bin')}:/usr/bin`, installed)).toBe('/usr/bin');
  });

  it('keeps a repository’s own node_modules/.bin and other projects’ (only fixloop’s install and the folders above it are npm’s)', () => {
    const other = join(root, 'elsewhere', 'repo', 'node_modules', '.bin');
    expect(userPath(`${other}:/usr/bin`, installed)).toBe(`${other}:/usr/bin`);
  });

  it('knows a checkout whose node_modules is a link to another checkout’s', async () => {
    const main = join(root, 'main');
    const worktree = join(root, 'worktree');
    await mkdir(join(worktree), { recursive: true });
    await writeFile(join(worktree, 'package.json'), '{ "name": "fixloop" }\n');
    await executable(join(main, 'node_modules', 'node', 'bin', 'node'));
    await mkdir(join(main, 'node_modules', '.bin'), { recursive: true });
    await symlink(join(main, 'node_modules'), join(worktree, 'node_modules'));
    // Node reports its real path: the other checkout's.
    const own = { root: worktree, execPath: join(main, 'node_modules', 'node', 'bin', 'node') };
    expect(userPath(`${join(worktree, 'node_modules', '.bin')}:${join(main, 'node_modules', '.bin')}:/usr/bin`, own)).toBe(
      '/usr/bin',
    );
  });

  it('finds this checkout as fixloop’s install, and the Node running these tests as its bundled one when it is', () => {
    const own = ownInstall();
    expect(realpathSync(join(own.root, 'src', 'sandbox', 'user-path.ts'))).toBeTruthy();
    expect(userPath(`${join(own.root, 'node_modules', '.bin')}:/usr/bin`)).toBe('/usr/bin');
  });
});

describe('the PATH sandboxed commands get', () => {
  it('is the user’s, with the process backend made by selectSandbox', async () => {
    const own = ownInstall();
    const { sandbox } = selectSandbox('process', {
      ...process.env,
      PATH: `${join(own.root, 'node_modules', '.bin')}:${userBin}:/usr/bin:/bin`,
    });
    const r = await sandbox.run({ command: 'echo "PATH=$PATH"', cwd: root, timeoutMs: 30_000 });
    expect(r.output.trim()).toBe(`PATH=${userBin}:/usr/bin:/bin`);
  });

  it('is the user’s for a sandbox made without the server’s environment too', async () => {
    const own = ownInstall();
    const saved = process.env.PATH;
    process.env.PATH = `${join(own.root, 'node_modules', '.bin')}:${userBin}:/usr/bin:/bin`;
    try {
      const r = await createProcessSandbox().run({ command: 'echo "PATH=$PATH"', cwd: root, timeoutMs: 30_000 });
      expect(r.output.trim()).toBe(`PATH=${userBin}:/usr/bin:/bin`);
    } finally {
      process.env.PATH = saved;
    }
  });
});
