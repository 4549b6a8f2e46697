// The library tests' repository: a real git repository whose `node --test` suite has one failing
// test, and a fingerprint of every file in it (.git included) to show a run left it as it was.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, lstatSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRepo } from '../support/git-fixture.ts';

export const CALC_FILES = {
  'package.json': '{ "name": "calc", "type": "module", "private": true }\n',
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  'test/math.test.js': [
    "import assert from 'node:assert/strict';",
    "import { test } from 'node:test';",
    "import { add } from '../src/math.js';",
    '',
    "test('add sums two numbers', () => {",
    '  assert.equal(add(2, 3), 5);',
    '});',
    '',
    "test('add keeps a number plus zero', () => {",
    '  assert.equal(add(2, 0), 2);',
    '});',
    '',
  ].join('\n'),
};

/** The script engine's fix: what a person (or another tool) would change. */
export const FIX_ADD = "sed -i 's/a - b/a + b/' src/math.js";

export function calcRepo(): Promise<string> {
  return makeRepo(CALC_FILES);
}

/** Every path under `dir` with its kind, mode and a digest of its content (or link target). */
export function treeFingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const full = join(dir, path);
      const stat = lstatSync(full);
      if (stat.isDirectory()) {
        out[path] = `dir ${stat.mode}`;
        walk(path);
      } else {
        const content = stat.isSymbolicLink() ? readlinkSync(full) : readFileSync(full);
        out[path] =
          `${stat.isSymbolicLink() ? 'link' : 'file'} ${stat.mode} ${createHash('sha256').update(content).digest('hex')}`;
      }
    }
  };
  walk('');
  return out;
}

/** A temporary folder for one library test, listed in `dirs` for removal after the file. */
export async function libraryTempDir(dirs: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fixloop-library-'));
  dirs.push(dir);
  return dir;
}
