// What a published project ships, as its own packaging tool says (src/assess/packaged-files.ts): real
// npm and a real build of a Python wheel, run by the process sandbox in a real folder.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesOf, npmPacked } from '../../src/assess/js/npm-packed.ts';
import { packagedFiles } from '../../src/assess/packaged-files.ts';
import { wheelFiles } from '../../src/assess/python/wheel-files.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';

const sandbox = createProcessSandbox();
const plain = (cwd: string, command: string, timeoutMs: number) => sandbox.run({ command, cwd, timeoutMs });
const FOLDER = '.fixloop-probe';
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'packaged-files-'));
  dirs.push(dir);
  await mkdir(join(dir, FOLDER));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const listed = (dir: string, testCommand = 'node --test', shipped = npmPacked) =>
  packagedFiles(dir, shipped, { suite: { plain, testCommand }, folder: FOLDER, timeoutMs: 60_000 });

describe('the files an npm package ships', () => {
  it('lists what npm packs: the `files` list and what npm always adds, not the rest, and leaves no list behind', async () => {
    const dir = await project({
      'package.json': JSON.stringify({ name: 'pk', version: '1.0.0', main: 'lib/index.js', files: ['lib/'] }),
      'lib/index.js': "module.exports = require('./part.js');\n",
      'lib/part.js': 'module.exports = 1;\n',
      'local/override.js': 'module.exports = 2;\n',
      'README.md': '# pk\n',
    });
    expect(await listed(dir)).toEqual({
      kind: 'package',
      files: new Set(['README.md', 'lib/index.js', 'lib/part.js', 'package.json']),
      built: false,
    });
    expect(await readdir(join(dir, FOLDER))).toEqual([]);
  });

  it('runs none of the package’s scripts', async () => {
    const dir = await project({
      'package.json': JSON.stringify({
        name: 'pk',
        version: '1.0.0',
        scripts: { prepack: 'touch prepacked', prepare: 'touch prepared' },
      }),
      'index.js': 'module.exports = 1;\n',
    });
    expect((await listed(dir)).kind).toBe('package');
    expect((await readdir(dir)).sort()).toEqual([FOLDER, 'index.js', 'package.json']);
  });

  it('runs the package’s build first when it makes an entry point the checkout lacks, and lists what it made', async () => {
    const dir = await project({
      'package.json': JSON.stringify({
        name: 'pk',
        version: '1.0.0',
        main: 'dist/index.js',
        files: ['dist/'],
        scripts: { prepack: 'node build.js' },
      }),
      'build.js':
        "const fs = require('fs');\nfs.mkdirSync('dist');\nfs.copyFileSync('src/index.js', 'dist/index.js');\nconsole.log('built');\n",
      'src/index.js': 'module.exports = 1;\n',
    });
    expect(await listed(dir)).toEqual({ kind: 'package', files: new Set(['dist/index.js', 'package.json']), built: true });
    expect(existsSync(join(dir, 'dist/index.js'))).toBe(true);
  });

  it('is no package for an application (private), a folder without package.json or one that does not parse', async () => {
    const app = await project({ 'package.json': JSON.stringify({ name: 'app', private: true }), 'index.js': '' });
    expect(await listed(app)).toEqual({ kind: 'not-a-package' });
    expect(await listed(await project({ 'calc.py': '' }))).toEqual({ kind: 'not-a-package' });
    expect(await listed(await project({ 'package.json': '{ "name": ' }))).toEqual({ kind: 'not-a-package' });
  });

  it('says why the files are not known when the tool fails', async () => {
    const dir = await project({ 'package.json': JSON.stringify({ name: 'pk', version: '1.0.0' }) });
    const failing = { ...npmPacked, command: () => 'exit 127' };
    expect(await listed(dir, 'node --test', failing)).toEqual({ kind: 'unknown', why: '`exit 127` ended with 127' });
  });

  it("reads npm's JSON, and nothing else as a list", () => {
    expect(filesOf(JSON.stringify([{ files: [{ path: 'a.js' }, { path: './b/c.js' }, { size: 1 }] }]))).toEqual(
      new Set(['a.js', 'b/c.js']),
    );
    expect(filesOf('npm notice\n')).toBeNull();
    expect(filesOf(JSON.stringify({ error: { code: 'E' } }))).toBeNull();
  });
});

describe("the files a Python project's wheel ships", () => {
  const PYPROJECT = [
    '[build-system]',
    'requires = ["setuptools>=61"]',
    'build-backend = "setuptools.build_meta"',
    '',
    '[project]',
    'name = "calc"',
    'version = "1.0.0"',
    '',
    '[tool.setuptools]',
    'packages = ["calc"]',
    '',
  ].join('\n');
  const files = {
    'pyproject.toml': PYPROJECT,
    'calc/__init__.py': 'from .core import total\n',
    'calc/core.py': 'def total(values):\n    return sum(values)\n',
    '_speedups.py': 'FAST = True\n',
    'tests/test_calc.py': 'from calc import total\n',
  };

  // Debian's Python builds the wheel (its `wheel` package is installed); pyenv's setuptools 65 has no
  // `wheel`, and the script asks setuptools' build_py for the same files.
  it.each(['python3', '/usr/bin/python3'])(
    'lists the modules the build packs (under %s), not a module beside them, and leaves no build behind',
    async (python) => {
      const dir = await project(files);
      expect(await listed(dir, `${python} -m pytest -q`, wheelFiles)).toEqual({
        kind: 'package',
        files: new Set(['calc/__init__.py', 'calc/core.py']),
        built: false,
      });
      expect(['build', 'calc.egg-info'].filter((name) => existsSync(join(dir, name)))).toEqual([]);
    },
  );

  it('maps a src layout’s modules to their checkout paths', async () => {
    const dir = await project({
      'pyproject.toml': PYPROJECT.replace('packages = ["calc"]', 'package-dir = { "" = "src" }\npackages = ["calc"]'),
      'src/calc/__init__.py': '',
      'src/calc/core.py': 'X = 1\n',
    });
    expect(await listed(dir, 'python3 -m pytest', wheelFiles)).toEqual({
      kind: 'package',
      files: new Set(['src/calc/__init__.py', 'src/calc/core.py']),
      built: false,
    });
  });

  it('is none for a folder of scripts, and unknown, with the command, when the build fails', async () => {
    expect(await listed(await project({ 'calc.py': '' }), 'python3 -m pytest', wheelFiles)).toEqual({ kind: 'not-a-package' });
    const broken = await project({ 'pyproject.toml': '[build-system]\nbuild-backend = "no_such_backend"\n' });
    const result = await listed(broken, 'python3 -m pytest', wheelFiles);
    expect(result).toMatchObject({ kind: 'unknown', why: expect.stringContaining('fixloop_wheel_files.py') });
  });
});
