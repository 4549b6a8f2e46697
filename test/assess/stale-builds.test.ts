// A shipped build that keeps a changed function as it was (src/assess/stale-builds.ts), on real files
// with npm's own reading of them (js/npm-packed.ts's `builtNames`): a copy under `dist/` the patch left
// is named, one the patch changed too is not, nor a source file that happens to share the name.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { npmPacked } from '../../src/assess/js/npm-packed.ts';
import { staleBuilds } from '../../src/assess/stale-builds.ts';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

const FILES = {
  'src/weights.js': 'export function shareOf(total, parts) { return total / parts; }\n',
  'src/other.js': 'export function shareOf(a) { return a; }\n',
  'dist/weights.cjs': '"use strict";\nfunction shareOf(total, parts) {\n  return total / parts;\n}\nexports.shareOf = shareOf;\n',
  'dist/index.js': 'const api = { round(x) { return Math.round(x); } };\nmodule.exports = api;\n',
};

async function checkout(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stale-builds-'));
  made.push(dir);
  for (const [path, text] of Object.entries(FILES)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const packaged = new Set(Object.keys(FILES));
const changed = [{ name: 'shareOf', path: 'src/weights.js' }];

describe('staleBuilds', () => {
  it('names a shipped build file that defines the changed function and that the patch left as it was', async () => {
    const dir = await checkout();
    const found = await staleBuilds(dir, npmPacked, { packaged, patched: new Set(['src/weights.js']) }, changed);
    expect(found).toEqual([{ function: 'shareOf', changed: 'src/weights.js', shipped: 'dist/weights.cjs' }]);
  });

  it('names none when the patch changed the build too, or when the package ships no build', async () => {
    const dir = await checkout();
    const both = new Set(['src/weights.js', 'dist/weights.cjs']);
    expect(await staleBuilds(dir, npmPacked, { packaged, patched: both }, changed)).toEqual([]);
    const sources = new Set(['src/weights.js', 'src/other.js']);
    expect(await staleBuilds(dir, npmPacked, { packaged: sources, patched: new Set(['src/weights.js']) }, changed)).toEqual([]);
  });

  it('finds a method by its own name in a build', async () => {
    const dir = await checkout();
    const method = [{ name: 'api.round', path: 'src/round.js' }];
    const found = await staleBuilds(dir, npmPacked, { packaged, patched: new Set(['src/round.js']) }, method);
    expect(found).toEqual([{ function: 'api.round', changed: 'src/round.js', shipped: 'dist/index.js' }]);
  });
});
