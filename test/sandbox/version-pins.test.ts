// The versions a repository pins and the tools that run its commands: npm's range syntax, version
// files, what the tools print, and the real `--version` of the tools on this machine's PATH, asked
// through a sandbox in the repository's folder.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectSandbox } from '../../src/sandbox/select-sandbox.ts';
import {
  measureToolVersions,
  parseToolVersions,
  toolsFor,
  versionIn,
  type ToolVersion,
} from '../../src/sandbox/tool-versions.ts';
import { readVersionPins, versionMismatches } from '../../src/sandbox/version-pins.ts';
import { matchesPrefix, satisfiesRange } from '../../src/sandbox/version-range.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fixloop-pins-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npm’s range syntax', () => {
  it.each([
    ['v20.20.2', '>=18', true],
    ['v20.20.2', '>= 22', false],
    ['v20.20.2', '>=18 <21', true],
    ['v20.20.2', '>=18.0.0 <20.20.0', false],
    ['v20.20.2', '^20.9.0 || >=22', true],
    ['v21.0.0', '^20.9.0 || >=22', false],
    ['v20.20.2', '20.x', true],
    ['v20.20.2', '22', false],
    ['v20.20.2', '~20.19', false],
    ['v20.19.5', '~20.19', true],
    ['v20.20.2', '18 - 20', true],
    ['v21.1.0', '18 - 20', false],
    ['v20.20.2', '>20', false],
    ['v21.0.0', '>20', true],
    ['v20.20.2', '<=20', true],
    ['v20.20.2', '<20', false],
    ['v24.9.0', '>=24.0.0 <25', true],
    ['v20.20.2', '*', true],
    ['0.2.5', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
  ])('%s against %s: %s', (version, range, held) => {
    expect(satisfiesRange(version, range)).toBe(held);
  });

  it('claims nothing about what it does not understand', () => {
    expect(satisfiesRange('v20.20.2', 'lts/iron')).toBeNull();
    expect(satisfiesRange('v20.20.2', 'latest')).toBeNull();
    expect(satisfiesRange('not a version', '>=18')).toBeNull();
  });

  it('matches version files by prefix, as nvm and pyenv read them', () => {
    expect(matchesPrefix('v22.3.0', '22')).toBe(true);
    expect(matchesPrefix('v20.20.2', 'v22')).toBe(false);
    expect(matchesPrefix('3.11.7', '3.11')).toBe(true);
    expect(matchesPrefix('3.11.7', '3.12')).toBe(false);
    expect(matchesPrefix('3.11.7', '3.11.7')).toBe(true);
    expect(matchesPrefix('3.11.7', 'lts/*')).toBeNull();
    expect(matchesPrefix('3.11.7', 'myproject-venv')).toBeNull();
  });
});

describe('what the tools print', () => {
  it('reads the version in each tool’s answer', () => {
    expect(versionIn('v20.20.2')).toBe('v20.20.2');
    expect(versionIn('Python 3.11.7')).toBe('3.11.7');
    expect(versionIn('11.19.1')).toBe('11.19.1');
    expect(versionIn("pyenv: version `3.12' is not installed (set by /repo/.python-version)")).toBeNull();
  });

  it('parses one line per tool found, and nothing else', () => {
    const output =
      "node\t/usr/bin/node\tv20.20.2\npython3\t/root/.pyenv/shims/python3\tpyenv: version `3.12' is not installed\nnoise\n";
    expect(parseToolVersions(output)).toEqual([
      { name: 'node', path: '/usr/bin/node', version: 'v20.20.2', said: 'v20.20.2' },
      { name: 'python3', path: '/root/.pyenv/shims/python3', version: null, said: "pyenv: version `3.12' is not installed" },
    ]);
  });

  it('asks only the tools of the project’s language: the files at its root or the words of its commands, all four when neither tells', async () => {
    const project = await mkdtemp(join(dir, 'project-'));
    expect(toolsFor(project, ['node --test'])).toEqual(['node', 'npm']);
    expect(toolsFor(project, ['python3 -m pytest -q'])).toEqual(['python3', 'python']);
    expect(toolsFor(project, ['make check'])).toEqual(['node', 'npm', 'python3', 'python']);
    // A runner named bare says no more than the project's files: here, nothing.
    expect(toolsFor(project, ['pytest -q'])).toEqual(['node', 'npm', 'python3', 'python']);
    expect(toolsFor(project, ['npm ci', '.venv/bin/python -m pytest'])).toEqual(['node', 'npm', 'python3', 'python']);
    await writeFile(join(project, 'pyproject.toml'), '[project]\nname = "x"\n');
    expect(toolsFor(project, ['make check'])).toEqual(['python3', 'python']);
    await writeFile(join(project, 'package.json'), '{}');
    expect(toolsFor(project, ['make check'])).toEqual(['node', 'npm', 'python3', 'python']);
  });

  it('asks the real tools through the sandbox, in the repository’s folder', async () => {
    const { sandbox } = selectSandbox('process', process.env);
    const tools = await measureToolVersions(sandbox, dir);
    const node = tools.find((t) => t.name === 'node');
    // The sandbox's PATH is the user's: the same Node a shell without fixloop's folders finds.
    const expected = execFileSync('/bin/sh', ['-c', 'node --version'], {
      env: { PATH: sandboxUserPath() },
      encoding: 'utf8',
    }).trim();
    expect(node?.version).toBe(expected);
    expect(tools.find((t) => t.name === 'npm')?.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('reads npm’s version from the package.json of the npm the PATH finds, and asks a wrapper that is not npm’s', async () => {
    const { sandbox } = selectSandbox('process', process.env);
    const real = execFileSync('/bin/sh', ['-c', 'npm --version'], { env: { PATH: sandboxUserPath() }, encoding: 'utf8' }).trim();
    expect((await measureToolVersions(sandbox, dir, undefined, ['npm']))[0]?.version).toBe(real);

    // An npm install laid out as npm's (bin/npm → lib/node_modules/npm/bin/npm-cli.js), whose program
    // would leave a mark if asked its version: its version is read, not asked. (The sandbox's package
    // settings run it for `config list`.)
    const install = join(dir, 'npm-install');
    const cli = join(install, 'lib/node_modules/npm/bin/npm-cli.js');
    await mkdir(dirname(cli), { recursive: true });
    await mkdir(join(install, 'bin'));
    await writeFile(cli, `#!/bin/sh\n[ "$1" = --version ] && touch ${join(dir, 'npm-ran')}\necho 1.0.0\n`, { mode: 0o755 });
    await writeFile(
      join(install, 'lib/node_modules/npm/package.json'),
      '{\n  "name": "npm",\n  "version": "10.9.9",\n  "bin": {}\n}\n',
    );
    await symlink(cli, join(install, 'bin/npm'));
    const laidOut = selectSandbox('process', { ...process.env, PATH: `${join(install, 'bin')}:${sandboxUserPath()}` }).sandbox;
    expect((await measureToolVersions(laidOut, dir, undefined, ['npm']))[0]).toMatchObject({
      path: join(install, 'bin/npm'),
      version: '10.9.9',
    });
    expect(existsSync(join(dir, 'npm-ran'))).toBe(false);

    // A wrapper of another package's: asked.
    const wrapper = join(dir, 'wrapper-bin');
    await mkdir(wrapper);
    await writeFile(join(wrapper, 'npm'), '#!/bin/sh\necho 8.1.0\n', { mode: 0o755 });
    const wrapped = selectSandbox('process', { ...process.env, PATH: `${wrapper}:${sandboxUserPath()}` }).sandbox;
    expect((await measureToolVersions(wrapped, dir, undefined, ['npm']))[0]?.version).toBe('8.1.0');
  });
});

/** This process's PATH without the checkout's own node_modules/.bin folders, as a user's shell has it. */
function sandboxUserPath(): string {
  return (process.env.PATH ?? '')
    .split(':')
    .filter((p) => !p.endsWith('/node_modules/.bin') && !p.endsWith('node-gyp-bin'))
    .join(':');
}

describe('the pins a repository makes', () => {
  const tool = (name: string, version: string | null): ToolVersion => ({
    name,
    path: `/usr/bin/${name}`,
    version,
    said: version ?? 'error: not installed',
  });

  it('reads .nvmrc, .node-version, engines.node and .python-version (its first version)', async () => {
    await writeFile(join(dir, '.nvmrc'), '# the team’s Node\nv22\n');
    await writeFile(join(dir, '.node-version'), '22.3.0\n');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'x', engines: { node: '>=22 <23' } }));
    await writeFile(join(dir, '.python-version'), '3.12\n3.11\n');
    expect(readVersionPins(dir)).toEqual([
      { tool: 'node', file: '.nvmrc', wants: 'v22', kind: 'prefix' },
      { tool: 'node', file: '.node-version', wants: '22.3.0', kind: 'prefix' },
      { tool: 'node', file: 'package.json (engines.node)', wants: '>=22 <23', kind: 'range' },
      { tool: 'python', file: '.python-version', wants: '3.12', kind: 'prefix' },
    ]);
  });

  it('names each pin the tools do not satisfy, and only those', () => {
    const pins = readVersionPins(dir);
    expect(versionMismatches(pins, [tool('node', 'v22.3.0'), tool('python3', '3.12.1')])).toEqual([]);
    expect(versionMismatches(pins, [tool('node', 'v20.20.2'), tool('python3', '3.11.7')])).toEqual([
      { tool: 'node', program: 'node', version: 'v20.20.2', file: '.nvmrc', wants: 'v22' },
      { tool: 'node', program: 'node', version: 'v20.20.2', file: '.node-version', wants: '22.3.0' },
      { tool: 'node', program: 'node', version: 'v20.20.2', file: 'package.json (engines.node)', wants: '>=22 <23' },
      { tool: 'python', program: 'python3', version: '3.11.7', file: '.python-version', wants: '3.12' },
    ]);
  });

  it('says so when the pinned interpreter printed no version, and nothing about a tool that is not there', () => {
    const pins = [{ tool: 'python' as const, file: '.python-version', wants: '3.12', kind: 'prefix' as const }];
    expect(versionMismatches(pins, [tool('python3', null)])).toEqual([
      { tool: 'python', program: 'python3', version: null, said: 'error: not installed', file: '.python-version', wants: '3.12' },
    ]);
    expect(versionMismatches(pins, [])).toEqual([]);
    expect(
      versionMismatches([{ tool: 'node', file: '.nvmrc', wants: 'lts/iron', kind: 'prefix' }], [tool('node', 'v20.20.2')]),
    ).toEqual([]);
  });
});
