// Toolchain resolution on fake trees: a pyenv root with a shim, an nvm-like tree, a virtualenv whose
// python3 links to a base interpreter, a pipx-like link from a home's bin folder, a prefix that is a
// home; the PATH order kept; `/`, homes and fixloop's own files refused.
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindGuardFrom, refusal } from '../../src/sandbox/bind-guard.ts';
import { sandboxPath } from '../../src/sandbox/bwrap-args.ts';
import { commandPrograms } from '../../src/sandbox/command-words.ts';
import { createHostView } from '../../src/sandbox/host-view.ts';
import { ownPython } from '../../src/sandbox/own-python.ts';
import { pathPastPyenvShims } from '../../src/sandbox/pyenv-path.ts';
import { resolveToolchain, resolveToolchains, type ToolchainHost } from '../../src/sandbox/toolchains.ts';

let root: string;
let home: string;
let pyenv: string;
let nvm: string;
let base: string;
let venv: string;

async function executable(path: string, text = '#!/bin/sh\necho fake\n'): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  await chmod(path, 0o755);
}

async function link(target: string, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await symlink(target, path);
}

beforeAll(async () => {
  root = realpathSync(await mkdtemp(join(tmpdir(), 'fixloop-toolchains-')));
  home = join(root, 'home');
  await mkdir(join(home, '.ssh'), { recursive: true });
  // pyenv: a shim that execs `pyenv exec`, two installed versions, a global `version` file.
  pyenv = join(home, '.pyenv');
  await executable(
    join(pyenv, 'shims', 'python3'),
    `#!/usr/bin/env bash\nset -e\nprogram="\${0##*/}"\nexport PYENV_ROOT="${pyenv}"\nexec "${pyenv}/libexec/pyenv" exec "$program" "$@"\n`,
  );
  await executable(join(pyenv, 'libexec', 'pyenv'));
  await executable(join(pyenv, 'versions', '3.12.1', 'bin', 'python3.12'));
  await link('python3.12', join(pyenv, 'versions', '3.12.1', 'bin', 'python3'));
  await executable(join(pyenv, 'versions', '3.11.4', 'bin', 'python3'));
  await writeFile(join(pyenv, 'version'), '3.12.1\n');
  // nvm: versions/node/<v>/bin/npm links into the version's lib/.
  nvm = join(home, '.nvm', 'versions', 'node', 'v20.11.0');
  await executable(join(nvm, 'bin', 'node'));
  await executable(join(nvm, 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'), '#!/usr/bin/env node\n');
  await link('../lib/node_modules/npm/bin/npm-cli.js', join(nvm, 'bin', 'npm'));
  // A base interpreter outside any home, and a virtualenv made from it.
  base = join(root, 'opt', 'python-3.12');
  await executable(join(base, 'bin', 'python3'));
  venv = join(root, 'project-venv');
  await mkdir(join(venv, 'bin'), { recursive: true });
  await writeFile(
    join(venv, 'pyvenv.cfg'),
    `home = ${join(base, 'bin')}\ninclude-system-site-packages = false\nversion = 3.12.1\n`,
  );
  await link(join(base, 'bin', 'python3'), join(venv, 'bin', 'python3'));
  await executable(join(venv, 'bin', 'pytest'), `#!${join(venv, 'bin', 'python3')}\nimport pytest\n`);
  // pipx-like: a home's bin folder links into a tool's own venv.
  const toolVenv = join(root, 'pipx', 'venvs', 'tox');
  await mkdir(join(toolVenv, 'bin'), { recursive: true });
  await writeFile(join(toolVenv, 'pyvenv.cfg'), `home = ${join(base, 'bin')}\n`);
  await executable(join(toolVenv, 'bin', 'tox'), `#!${join(toolVenv, 'bin', 'python')}\n`);
  await link(join(toolVenv, 'bin', 'tox'), join(home, '.local', 'bin', 'tox'));
  // A tool straight in the home's bin folder: its prefix would be the home itself.
  await executable(join(home, 'bin', 'hometool'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const hostFor = (path: string, env: NodeJS.ProcessEnv = {}): ToolchainHost => {
  const full = { HOME: home, ...env };
  return { path, env: full, guard: bindGuardFrom(full, root), cwd: root };
};

describe('toolchain resolution', () => {
  it('follows a pyenv shim to the version pyenv selects, and shows the pyenv root', () => {
    const t = resolveToolchain('python3', hostFor(`${pyenv}/shims:/usr/bin:/bin`));
    expect(t).toMatchObject({
      kind: 'pyenv',
      executable: join(pyenv, 'shims', 'python3'),
      realPath: join(pyenv, 'versions', '3.12.1', 'bin', 'python3.12'),
      prefix: join(pyenv, 'versions', '3.12.1'),
      dirs: [pyenv],
      env: { PYENV_ROOT: pyenv },
    });
    expect(t?.env.PYENV_VERSION).toBeUndefined();
  });

  it('honours PYENV_VERSION (a prefix of an installed version) and passes it on', () => {
    const t = resolveToolchain('python3', hostFor(`${pyenv}/shims:/usr/bin`, { PYENV_VERSION: '3.11' }));
    expect(t).toMatchObject({
      realPath: join(pyenv, 'versions', '3.11.4', 'bin', 'python3'),
      env: { PYENV_ROOT: pyenv, PYENV_VERSION: '3.11' },
    });
  });

  it('reads a .python-version above the working folder', async () => {
    const dir = join(root, 'pinned', 'deep');
    await mkdir(dir, { recursive: true });
    await writeFile(join(root, 'pinned', '.python-version'), '3.11.4\n');
    const t = resolveToolchain('python3', { ...hostFor(`${pyenv}/shims:/usr/bin`), cwd: dir });
    expect(t?.realPath).toBe(join(pyenv, 'versions', '3.11.4', 'bin', 'python3'));
  });

  it('puts the selected version’s bin/ in front of pyenv’s shims on a command’s PATH, as `pyenv exec` does', async () => {
    const bin = (v: string) => join(pyenv, 'versions', v, 'bin');
    const path = `/usr/local/bin:${pyenv}/shims:/usr/bin`;
    expect(pathPastPyenvShims(path, {}, root)).toBe(`/usr/local/bin:${bin('3.12.1')}:${pyenv}/shims:/usr/bin`);
    expect(pathPastPyenvShims(path, { PYENV_VERSION: '3.11:3.12.1' }, root)).toBe(
      `/usr/local/bin:${bin('3.11.4')}:${bin('3.12.1')}:${pyenv}/shims:/usr/bin`,
    );
    // The command's folder decides, as it does for the shim there.
    const dir = join(root, 'pinned-for-path', 'deep');
    await mkdir(dir, { recursive: true });
    await writeFile(join(root, 'pinned-for-path', '.python-version'), '3.11.4\n');
    expect(pathPastPyenvShims(path, {}, dir)).toBe(`/usr/local/bin:${bin('3.11.4')}:${pyenv}/shims:/usr/bin`);
    // Left to the shim: `system` (the PATH past pyenv's folders) and a version that is not installed (pyenv's own error).
    expect(pathPastPyenvShims(path, { PYENV_VERSION: 'system' }, root)).toBe(path);
    expect(pathPastPyenvShims(path, { PYENV_VERSION: '3.12.1:3.9.9' }, root)).toBe(path);
    // A folder named shims that is no pyenv root's is only a folder.
    expect(pathPastPyenvShims(`${root}/shims:/usr/bin`, {}, root)).toBe(`${root}/shims:/usr/bin`);
  });

  it('starts fixloop’s own Python helpers on the interpreter a pyenv shim would start, and on `python3` otherwise', () => {
    expect(ownPython(`${pyenv}/shims:/usr/bin`, root)).toBe(join(pyenv, 'versions', '3.12.1', 'bin', 'python3.12'));
    expect(ownPython(`${root}/no-python-here`, root)).toBe('python3');
  });

  it('follows nvm’s npm link to its version folder', () => {
    const t = resolveToolchain('npm', hostFor(`${nvm}/bin:/usr/bin`));
    expect(t).toMatchObject({
      kind: 'nvm',
      executable: join(nvm, 'bin', 'npm'),
      realPath: join(nvm, 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
      prefix: nvm,
      dirs: [nvm],
      links: [],
    });
  });

  it('shows a virtualenv and the base prefix its pyvenv.cfg names, and announces it as activation does', () => {
    const host = hostFor(`${venv}/bin:${pyenv}/shims:/usr/bin`);
    const python = resolveToolchain('python3', host);
    expect(python).toMatchObject({
      kind: 'virtualenv',
      prefix: venv,
      realPath: join(base, 'bin', 'python3'),
      env: { VIRTUAL_ENV: venv },
    });
    expect(python?.dirs.sort()).toEqual([base, venv].sort());
    // A console script of the venv: its `#!` names the venv's python.
    expect(resolveToolchain('pytest', host)?.dirs.sort()).toEqual([base, venv].sort());
  });

  it('recreates a link from a folder it does not show (a home’s bin) into a tool’s own venv', () => {
    const t = resolveToolchain('tox', hostFor(`${home}/.local/bin:/usr/bin`));
    const toolVenv = join(root, 'pipx', 'venvs', 'tox');
    expect(t).toMatchObject({
      kind: 'virtualenv',
      links: [{ path: join(home, '.local', 'bin', 'tox'), target: join(toolVenv, 'bin', 'tox') }],
      env: {},
    });
    expect(t?.dirs.sort()).toEqual([base, toolVenv].sort());
  });

  it('never shows a home as a whole: a tool in ~/bin gets its bin folder only', () => {
    const t = resolveToolchain('hometool', hostFor(`${home}/bin:/usr/bin`));
    expect(t?.dirs).toEqual([join(home, 'bin')]);
    expect(t?.refused).toEqual([{ path: home, reason: 'a home folder as a whole' }]);
  });

  it('needs nothing for the system’s own programs, and skips names the PATH does not have', () => {
    const sh = resolveToolchain('sh', hostFor('/usr/bin:/bin'));
    expect(sh).toMatchObject({ kind: 'system', dirs: [], links: [] });
    expect(resolveToolchain('no-such-program-here', hostFor('/usr/bin:/bin'))).toBeNull();
    const names = resolveToolchains(['npm ci'], hostFor(`${nvm}/bin:/usr/bin`)).map((t) => t.name);
    expect(names[0]).toBe('npm');
  });
});

describe('what may be shown', () => {
  const guard = bindGuardFrom(
    { HOME: '/home/op', FIXLOOP_DATA_DIR: '/srv/fixloop/data', PRIVATE_KEY_PATH: '/srv/keys/app.pem' },
    '/srv/fixloop',
  );

  it('refuses /, a home or what holds one, fixloop’s data and key, and the workspace root', () => {
    expect(refusal('/', guard)).toBe('the root folder');
    expect(refusal('/root', guard)).toBe('a home folder as a whole');
    expect(refusal('/home/op', guard)).toBe('a home folder as a whole');
    expect(refusal('/home/someone-else', guard)).toBe('a home folder as a whole');
    expect(refusal('/home', guard)).toBe('a home folder as a whole');
    expect(refusal('/srv/fixloop/data/runs', guard)).toBe("holds fixloop's own data or keys");
    expect(refusal('/srv', guard)).toBe("holds fixloop's own data or keys");
    expect(refusal('/srv/keys/app.pem', guard)).toBe("holds fixloop's own data or keys");
    expect(refusal(tmpdir(), guard)).toBe('holds the workspaces');
    expect(refusal('/etc/ssl/private/x.pem', guard)).toBe('a secret of the system');
  });

  it("refuses the command line's data folder: FIXLOOP_DATA_DIR, else XDG_DATA_HOME's or the home's", () => {
    const xdg = bindGuardFrom({ HOME: '/home/op', XDG_DATA_HOME: '/opt/xdg' }, '/srv/x');
    expect(refusal('/opt/xdg/fixloop/cli-runs', xdg)).toBe("fixloop's own run records");
    expect(refusal('/opt/xdg/other-tool', xdg)).toBeNull();
    const home = bindGuardFrom({ HOME: '/home/op' }, '/srv/x');
    expect(refusal('/home/op/.local/share/fixloop', home)).toBe("fixloop's own run records");
    expect(refusal('/home/op/.local/share/fixloop/cli-runs', home)).toBe("fixloop's own run records");
    // A `pip --user` prefix holds them: shown, with them covered by an empty folder (bwrap-args.ts).
    expect(refusal('/home/op/.local', home)).toBeNull();
    expect(home.covered).toEqual(['/home/op/.local/share/fixloop']);
    expect(refusal('/srv/fixloop/data/cli-runs', guard)).toBe("holds fixloop's own data or keys");
  });

  it('allows a prefix inside a home, but not a folder holding credentials', async () => {
    expect(refusal('/home/op/.pyenv', guard)).toBeNull();
    const dir = await mkdtemp(join(tmpdir(), 'fixloop-creds-'));
    await writeFile(join(dir, '.netrc'), 'machine x login y password z\n');
    expect(refusal(dir, guard)).toBe('holds credentials (.netrc)');
    await rm(dir, { recursive: true, force: true });
  });
});

describe('the sandbox’s PATH', () => {
  it('keeps the server PATH’s order, dropping what it does not show', () => {
    const parent = `${venv}/bin:${root}/hidden/bin:${pyenv}/shims:/usr/local/bin:/usr/bin`;
    expect(sandboxPath(parent, ['/opt/node/bin'], [venv, pyenv])).toBe(
      `/opt/node/bin:${venv}/bin:${pyenv}/shims:/usr/local/bin:/usr/bin:/bin`,
    );
  });

  it('gives each command the toolchains it names and the standard ones, and keeps their PATH entries', () => {
    const env = {
      HOME: home,
      PATH: `${venv}/bin:${home}/.local/bin:${pyenv}/shims:/usr/bin:/bin`,
      FIXLOOP_DATA_DIR: join(root, 'data'),
    };
    const view = createHostView({ env, cwd: root }).forCommand('tox -e py && python3 -m pytest');
    expect(view.toolchains.map((t) => t.name)).toEqual(expect.arrayContaining(['tox', 'python3', 'pytest']));
    expect(view.readOnly).toEqual(expect.arrayContaining([venv, base, join(root, 'pipx', 'venvs', 'tox')]));
    expect(view.readOnly).not.toContain(home);
    expect(view.env).toMatchObject({ VIRTUAL_ENV: venv });
    expect(sandboxPath(env.PATH, [], view.visible).split(':')).toEqual([
      `${venv}/bin`,
      `${home}/.local/bin`,
      '/usr/bin',
      '/bin',
      '/usr/local/bin',
    ]);
  });
});

describe('the programs a command line names', () => {
  it('takes the first word of each simple command, past assignments, wrappers and `sh -c`', () => {
    expect(commandPrograms('FOO=1 npx vitest run && python3 -m pytest | tee out.txt; sh -c "make test && cargo build"')).toEqual([
      'npx',
      'python3',
      'tee',
      'sh',
      'make',
      'cargo',
    ]);
    expect(commandPrograms("python3 -c 'import a; b()'")).toEqual(['python3']);
    expect(commandPrograms('env -i A=1 timeout 5 node x.js')).toEqual(['env', 'timeout', 'node']);
    expect(commandPrograms('./run.sh; (cd sub && npm ci)')).toEqual(['cd', 'npm']);
    expect(commandPrograms('if true; then pnpm test; fi')).toEqual(['true', 'pnpm']);
  });
});
