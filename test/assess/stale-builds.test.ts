// A shipped copy that keeps a changed function as it was (src/assess/stale-builds.ts), on real files
// with npm's own reading of them (js/npm-packed.ts's `definedFunctions`): a build under `dist/` by
// the function's name, a copy for another module format elsewhere by its text; not a copy the patch
// changed too, nor a function elsewhere that only shares the name.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { npmPacked } from '../../src/assess/js/npm-packed.ts';
import { likeness, staleBuilds } from '../../src/assess/stale-builds.ts';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

const SHARE = `function shareOf(total, parts) {
  // Each part's share, rounded down.
  return Math.floor(total / parts);
}`;

const FILES = {
  'src/weights.js': `${SHARE}\nmodule.exports = { shareOf };\n`,
  'src/other.js': 'function shareOf(a) {\n  return [a].map(String).join(",");\n}\nmodule.exports = { shareOf };\n',
  'dist/weights.cjs': '"use strict";\nfunction shareOf(t, p) {\n  return t / p | 0;\n}\nexports.shareOf = shareOf;\n',
  'esm/weights.mjs': `export ${SHARE.replace('// Each', '/* each */ // Each')}\n`,
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
const changed = [{ name: 'shareOf', path: 'src/weights.js', original: FILES['src/weights.js'] }];
const patchedOnly = (...paths: string[]) => ({ packaged, patched: new Set(['src/weights.js', ...paths]) });

describe('staleBuilds', () => {
  it('names a build under dist by the name, a copy elsewhere by its text, each left as it was', async () => {
    const dir = await checkout();
    expect(await staleBuilds(dir, npmPacked, patchedOnly(), changed)).toEqual([
      { function: 'shareOf', changed: 'src/weights.js', shipped: 'dist/weights.cjs' },
      { function: 'shareOf', changed: 'src/weights.js', shipped: 'esm/weights.mjs' },
    ]);
  });

  it('names none the patch changed too, and no function that shares the name only', async () => {
    const dir = await checkout();
    expect(await staleBuilds(dir, npmPacked, patchedOnly('dist/weights.cjs', 'esm/weights.mjs'), changed)).toEqual([]);
    const sources = { packaged: new Set(['src/weights.js', 'src/other.js']), patched: new Set(['src/weights.js']) };
    expect(await staleBuilds(dir, npmPacked, sources, changed)).toEqual([]);
    // A function the patch added has no original text: only a build's copy could name it.
    const added = [{ name: 'shareOf', path: 'src/new.js', original: null }];
    expect(await staleBuilds(dir, npmPacked, { packaged, patched: new Set(['src/new.js']) }, added)).toEqual([
      { function: 'shareOf', changed: 'src/new.js', shipped: 'dist/weights.cjs' },
    ]);
  });

  it('finds a method by its own name in a build', async () => {
    const dir = await checkout();
    const method = [{ name: 'api.round', path: 'src/round.js', original: null }];
    const found = await staleBuilds(dir, npmPacked, { packaged, patched: new Set(['src/round.js']) }, method);
    expect(found).toEqual([{ function: 'api.round', changed: 'src/round.js', shipped: 'dist/index.js' }]);
  });
});

describe('likeness', () => {
  it('is 1 for the same tokens whatever the spacing and comments, and low for other code', () => {
    expect(likeness('function f(a) { return a + 1; }', 'function  f(a){\n  // one more\n  return a+1;\n}')).toBe(1);
    expect(likeness('function f(a) { return a + 1; }', 'function f(list) { return list.map(String).join(","); }')).toBeLessThan(
      0.6,
    );
    expect(likeness('', 'function f() {}')).toBe(0);
  });
});
