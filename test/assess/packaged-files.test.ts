// What an npm package ships, as the operator's npm packs it (src/assess/packaged-files.ts): real npm,
// run by the process sandbox in a real folder.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesOf, packagedFiles } from '../../src/assess/packaged-files.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';

const sandbox = createProcessSandbox();
const suite = { plain: (cwd: string, command: string, timeoutMs: number) => sandbox.run({ command, cwd, timeoutMs }) };
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'packaged-files-'));
  dirs.push(dir);
  await mkdir(join(dir, '.fixloop-probe'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe('the files an npm package ships', () => {
  it('lists what npm packs: the `files` list and what npm always adds, not the rest, and leaves no list behind', async () => {
    const dir = await project({
      'package.json': JSON.stringify({ name: 'pk', version: '1.0.0', main: 'lib/index.js', files: ['lib/'] }),
      'lib/index.js': "module.exports = require('./part.js');\n",
      'lib/part.js': 'module.exports = 1;\n',
      'local/override.js': 'module.exports = 2;\n',
      'README.md': '# pk\n',
    });
    const packaged = await packagedFiles(dir, suite, '.fixloop-probe/list.json', 30_000);
    expect(packaged).toEqual({ kind: 'package', files: new Set(['README.md', 'lib/index.js', 'lib/part.js', 'package.json']) });
    expect(await readdir(join(dir, '.fixloop-probe'))).toEqual([]);
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
    const packaged = await packagedFiles(dir, suite, '.fixloop-probe/list.json', 30_000);
    expect(packaged.kind).toBe('package');
    expect((await readdir(dir)).sort()).toEqual(['.fixloop-probe', 'index.js', 'package.json']);
  });

  it('is no package for an application (private) or a folder without package.json', async () => {
    const app = await project({ 'package.json': JSON.stringify({ name: 'app', private: true }), 'index.js': '' });
    expect(await packagedFiles(app, suite, '.fixloop-probe/list.json', 30_000)).toEqual({ kind: 'not-a-package' });
    const python = await project({ 'calc.py': '' });
    expect(await packagedFiles(python, suite, '.fixloop-probe/list.json', 30_000)).toEqual({ kind: 'not-a-package' });
  });

  it('says why the files are not known: a package.json that does not parse, an npm that fails', async () => {
    const broken = await project({ 'package.json': '{ "name": ' });
    expect(await packagedFiles(broken, suite, '.fixloop-probe/list.json', 30_000)).toEqual({
      kind: 'unknown',
      why: 'package.json does not parse',
    });
    const noNpm = await project({ 'package.json': JSON.stringify({ name: 'pk', version: '1.0.0' }) });
    const failing = {
      plain: (cwd: string, command: string, timeoutMs: number) =>
        sandbox.run({ command: `exit 127; ${command}`, cwd, timeoutMs }),
    };
    expect(await packagedFiles(noNpm, failing, '.fixloop-probe/list.json', 30_000)).toEqual({
      kind: 'unknown',
      why: 'npm pack --dry-run ended with 127',
    });
  });

  it("reads npm's JSON, and nothing else as a list", () => {
    expect(filesOf(JSON.stringify([{ files: [{ path: 'a.js' }, { path: './b/c.js' }, { size: 1 }] }]))).toEqual(
      new Set(['a.js', 'b/c.js']),
    );
    expect(filesOf('npm notice\n')).toBeNull();
    expect(filesOf(JSON.stringify({ error: { code: 'E' } }))).toBeNull();
  });
});
