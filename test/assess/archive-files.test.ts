// What a git archive leaves out (src/assess/archive-files.ts), asked of real git on a real folder:
// the paths marked `export-ignore` by any `.gitattributes` of the tree, and everything inside a folder
// so marked, as `git archive` itself leaves them; the checkout's own `.git` takes no part.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { archiveLeavesOut } from '../../src/assess/archive-files.ts';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'archive-files-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const TREE = {
  '.gitattributes': '/local export-ignore\nsrc/dev.js export-ignore\n*.snap export-ignore\nsrc/kept.js -export-ignore\n',
  'docs/.gitattributes': '*.md export-ignore\n',
  'local/separators.js': '',
  'local/deep/more.js': '',
  'src/paths.js': '',
  'src/dev.js': '',
  'src/kept.js': '',
  'src/paths.snap': '',
  'docs/guide.md': '',
  'README.md': '',
};

describe('archiveLeavesOut', () => {
  it('names what the attribute files mark, and all a marked folder holds, as git archive leaves them out', async () => {
    const dir = await folder(TREE);
    const paths = Object.keys(TREE);
    const leftOut = await archiveLeavesOut(dir, paths);
    expect(leftOut.sort()).toEqual([
      'docs/guide.md',
      'local/deep/more.js',
      'local/separators.js',
      'src/dev.js',
      'src/paths.snap',
    ]);
    // The same as git's own archive of the tree, committed.
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'tree');
    const archived = listArchive(dir);
    expect(paths.filter((path) => !archived.includes(path)).sort()).toEqual(leftOut.sort());
  });

  it('names nothing for a tree without attribute files, or when asked of no path', async () => {
    const dir = await folder({ 'src/paths.js': '', 'local/separators.js': '' });
    expect(await archiveLeavesOut(dir, ['src/paths.js', 'local/separators.js'])).toEqual([]);
    expect(await archiveLeavesOut(dir, [])).toEqual([]);
  });
});

function listArchive(dir: string): string[] {
  const tar = execFileSync('sh', ['-c', 'git archive --format=tar HEAD | tar -t'], { cwd: dir, encoding: 'utf8' });
  return tar.split('\n').filter((line) => line && !line.endsWith('/'));
}
