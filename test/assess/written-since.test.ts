import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writtenSince } from '../../src/assess/written-since.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tree(files: Record<string, string>, ageMs: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'written-since-'));
  dirs.push(dir);
  const then = new Date(Date.now() - ageMs);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
    await utimes(join(dir, path), then, then);
  }
  return dir;
}

describe('the files written since a moment', () => {
  it('finds files and links newer than it, in any folder, and not those it is told to skip', async () => {
    const dir = await tree({ 'src/a.js': 'old', 'node_modules/dep/index.js': 'old', 'test/a.test.js': 'old' }, 60_000);
    await writeFile(join(dir, 'src/a.js'), 'rewritten');
    await mkdir(join(dir, 'node_modules/.cache/x'), { recursive: true });
    await writeFile(join(dir, 'node_modules/.cache/x/state.json'), '{}');
    await writeFile(join(dir, 'test/a.test.js'), 'rewritten');
    await mkdir(join(dir, '.fixloop-probe'));
    await writeFile(join(dir, '.fixloop-probe/records.jsonl'), '');
    await symlink('/etc/passwd', join(dir, 'link'));
    // A file's time is the kernel's coarse clock's, which may lag the moment by some milliseconds.
    const since = Date.now() - 1000;
    const found = await writtenSince(dir, since, new Set(['test/a.test.js', '.fixloop-probe']));
    expect(found.sort()).toEqual(['link', 'node_modules/.cache/x/state.json', 'src/a.js']);
  });

  it('finds nothing in a tree older than the moment', async () => {
    const dir = await tree({ 'a.js': 'old', 'lib/b.js': 'old' }, 60_000);
    expect(await writtenSince(dir, Date.now() - 1000, new Set())).toEqual([]);
  });
});
