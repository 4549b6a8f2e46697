// Whether an npm package builds what it ships on packing (src/assess/js/npm-build.ts): a prepack or
// prepare script and an entry point the checkout lacks; and the entry points a manifest names.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildsOnPack, entryPoints } from '../../../src/assess/js/npm-build.ts';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('entryPoints', () => {
  it('names main, module and every exports target but patterns, without ./', () => {
    const manifest = {
      main: 'dist/index.cjs',
      module: './dist/index.mjs',
      exports: { '.': { import: './dist/index.mjs', require: ['./dist/index.cjs'] }, './util/*': './dist/util/*.js' },
    };
    expect(entryPoints(manifest).sort()).toEqual(['dist/index.cjs', 'dist/index.mjs']);
    expect(entryPoints({ exports: './lib/main.js' })).toEqual(['lib/main.js']);
    expect(entryPoints({ name: 'bare' })).toEqual([]);
  });
});

describe('buildsOnPack', () => {
  it('is true only with a prepack or prepare script and an entry point that is not there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'npm-build-'));
    made.push(dir);
    await mkdir(join(dir, 'lib'));
    await writeFile(join(dir, 'lib/index.js'), '');
    const manifest = (scripts: Record<string, string>, main: string) => ({ name: 'pk', main, scripts });
    expect(await buildsOnPack(dir, manifest({ prepack: 'node build.js' }, 'dist/index.js'))).toBe(true);
    expect(await buildsOnPack(dir, manifest({ prepare: 'tsc' }, 'dist/index.js'))).toBe(true);
    expect(await buildsOnPack(dir, manifest({ prepare: 'husky' }, 'lib/index.js'))).toBe(false);
    expect(await buildsOnPack(dir, manifest({ build: 'tsc' }, 'dist/index.js'))).toBe(false);
  });
});
