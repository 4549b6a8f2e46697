// `fixloop run` on a repository with uncommitted work (issue 28, item 2): the run starts from the
// working tree as it is, reads its fixloop.yml from there, leaves the user's repository exactly as it
// was, runs from HEAD with --head, and --apply puts the patch back onto that tree or refuses by name.
// Real git repositories, the real CLI, real `node --test` suites.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { git, makeRepo, removeAll } from '../support/git-fixture.ts';
import { FIXLOOP_BIN, runCli, type CliRun } from '../support/run-cli.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

// Two tests fail on the committed code; `a + b` fixes both.
const PROJECT = {
  'package.json': '{ "name": "calc", "type": "module", "private": true }\n',
  '.gitignore': 'build/\n*.log\n',
  'README.md': '# calc\n',
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n',
  'test/math.test.js': [
    "import assert from 'node:assert/strict';",
    "import { test } from 'node:test';",
    "import { add } from '../src/math.js';",
    "test('add sums', () => assert.equal(add(2, 3), 5));",
    "test('add sums ones', () => assert.equal(add(1, 1), 2));",
    '',
  ].join('\n'),
};

const FIX = "sed -i 's/a - b/a + b/' src/math.js";

async function repo(): Promise<string> {
  const dir = await makeRepo(PROJECT);
  dirs.push(dir);
  return dir;
}

async function outDir(): Promise<string> {
  const dir = await makeRepo({}, { git: false });
  dirs.push(dir);
  return join(dir, 'out');
}

/** What of the user's repository a run must leave as it was: status, refs, stashes and the index file. */
function repositoryState(dir: string) {
  return {
    status: git(dir, 'status', '--porcelain', '--untracked-files=all'),
    refs: git(dir, 'for-each-ref'),
    stash: git(dir, 'stash', 'list'),
    index: createHash('sha256')
      .update(readFileSync(join(dir, '.git', 'index')))
      .digest('hex'),
  };
}

const resultIn = (out: string) => JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as RunResult;

describe('fixloop run on a working tree with uncommitted changes', { timeout: 240_000 }, () => {
  it('starts from the working tree: the uncommitted fix makes nothing to fix, ignored files stay out, the repository is untouched', async () => {
    const project = await repo();
    writeFileSync(join(project, 'src/math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
    writeFileSync(join(project, 'notes.txt'), 'an untracked file the tests look for\n');
    mkdirSync(join(project, 'build'));
    writeFileSync(join(project, 'build/ignored.txt'), 'ignored by .gitignore\n');
    writeFileSync(join(project, 'debug.log'), 'ignored too\n');
    // An earlier run's records, left in the repository by a run started inside it: fixloop's, not the project's.
    mkdirSync(join(project, '.fixloop/runs/earlier'), { recursive: true });
    writeFileSync(join(project, '.fixloop/runs/earlier/result.json'), '{}\n');
    const before = repositoryState(project);
    const out = await outDir();
    // The test command itself proves what the run's tree holds: the untracked file, not the ignored ones.
    const test = 'test -e notes.txt && test ! -e build/ignored.txt && test ! -e debug.log && test ! -e .fixloop && node --test';
    const run = await runCli(['run', project, '--test', test, '--engine', 'script', '--script', 'true', '--out', out], {
      cwd: project,
    });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('started from the working tree: 1 modified, 1 untracked file on HEAD');
    expect(run.stdout).toContain('_Started from the working tree: 1 modified, 1 untracked file on HEAD');
    const result = resultIn(out);
    expect(result.status).toBe('nothing_to_fix');
    expect(result.baseline).toMatchObject({ passed: 2, failed: 0 });
    const head = git(project, 'rev-parse', 'HEAD').trim();
    expect(result.repository.workingTree).toMatchObject({ head, included: true });
    expect(result.repository.workingTree?.files.map((f) => [f.path, f.state]).sort()).toEqual([
      ['notes.txt', 'untracked'],
      ['src/math.js', 'modified'],
    ]);
    // The run's commit is the snapshot in fixloop's mirror, not the user's HEAD.
    expect(result.repository.sha).not.toBe(head);
    expect(repositoryState(project)).toEqual(before);
  });

  it('reads an uncommitted fixloop.yml, and --apply puts the patch onto the dirty tree', async () => {
    const project = await repo();
    writeFileSync(join(project, 'fixloop.yml'), 'test:\n  command: node --test\n');
    // Uncommitted work the patch does not touch, and work in the very file it fixes.
    appendFileSync(join(project, 'README.md'), 'Work in progress.\n');
    writeFileSync(join(project, 'src/math.js'), '// keep this comment\nexport function add(a, b) {\n  return a - b;\n}\n');
    const refsBefore = git(project, 'for-each-ref');
    const out = await outDir();
    const run = await runCli(['run', project, '--engine', 'script', '--script', FIX, '--apply', '--out', out], { cwd: project });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('started from the working tree: 2 modified, 1 untracked file');
    expect(run.stderr).toContain('applied the verified patch');
    const result = resultIn(out);
    expect(result.testCommand).toBe('node --test');
    expect(result.baseline).toMatchObject({ failed: 2 });
    expect(result.status).toBe('tests_green');
    expect(readFileSync(join(project, 'src/math.js'), 'utf8')).toBe(
      '// keep this comment\nexport function add(a, b) {\n  return a + b;\n}\n',
    );
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# calc\nWork in progress.\n');
    expect(git(project, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
      ' M README.md',
      ' M src/math.js',
      '?? fixloop.yml',
    ]);
    expect(git(project, 'for-each-ref')).toBe(refsBefore);
    expect(git(project, 'stash', 'list')).toBe('');
  });

  it("checks an uncommitted fixloop.yml before the run as the run reads it: a file git ignores is not the run's", async () => {
    const project = await repo();
    writeFileSync(join(project, '.gitignore'), 'build/\n*.log\nfixloop.yml\n');
    writeFileSync(join(project, 'fixloop.yml'), 'test:\n  command: node --test\n');
    const run = await runCli(['run', project, '--engine', 'script', '--script', FIX], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no test command');
    expect(run.stderr).not.toMatch(/cloning|baseline/);
  });

  it('starts from HEAD with --head: the uncommitted fix is left out, two tests fail', async () => {
    const project = await repo();
    writeFileSync(join(project, 'src/math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
    const before = repositoryState(project);
    const out = await outDir();
    const run = await runCli(
      [
        'run',
        project,
        '--head',
        '--test',
        'node --test',
        '--engine',
        'script',
        '--script',
        'true',
        '--max-attempts',
        '1',
        '--out',
        out,
      ],
      { cwd: project },
    );

    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/started from HEAD \([0-9a-f]{12}\); left out of the run: 1 modified file of the working tree/);
    expect(run.stderr).toContain('2 failing');
    const result = resultIn(out);
    expect(result.baseline).toMatchObject({ failed: 2 });
    expect(result.repository.sha).toBe(git(project, 'rev-parse', 'HEAD').trim());
    expect(result.repository.workingTree).toMatchObject({ included: false, files: [{ path: 'src/math.js', state: 'modified' }] });
    expect(repositoryState(project)).toEqual(before);
  });

  it('takes a sub-folder of a repository as its working tree has it, or as HEAD has it with --head', async () => {
    const project = await repo();
    writeFileSync(join(project, 'src/math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
    mkdirSync(join(project, 'pkg'));
    for (const [path, text] of Object.entries(PROJECT)) {
      mkdirSync(join(project, 'pkg', path, '..'), { recursive: true });
      writeFileSync(join(project, 'pkg', path), text);
    }
    git(project, 'add', 'pkg');
    git(project, 'commit', '-q', '-m', 'pkg');
    writeFileSync(join(project, 'pkg/src/math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
    const args = (head: string[]) => [
      'run',
      join(project, 'pkg'),
      ...head,
      '--test',
      'node --test',
      '--engine',
      'script',
      '--script',
      'true',
      '--max-attempts',
      '1',
      '--json',
    ];
    const fromTree = await runCli(args([]), { cwd: project });
    expect(fromTree.code, fromTree.stderr).toBe(0);
    expect((JSON.parse(fromTree.stdout) as RunResult).status).toBe('nothing_to_fix');
    const fromHead = await runCli(args(['--head']), { cwd: project });
    expect(fromHead.code, fromHead.stderr).toBe(1);
    expect((JSON.parse(fromHead.stdout) as RunResult).baseline).toMatchObject({ failed: 2 });
  });

  it('refuses --apply by name when a file the patch touches changed during the run, and keeps the patch', async () => {
    const project = await repo();
    appendFileSync(join(project, 'README.md'), 'Work in progress.\n');
    const out = await outDir();
    const child = spawn(
      process.execPath,
      [
        FIXLOOP_BIN,
        'run',
        project,
        '--test',
        'sleep 1; node --test',
        '--engine',
        'script',
        '--script',
        FIX,
        '--apply',
        '--out',
        out,
      ],
      { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const run: CliRun = { code: null, stdout: '', stderr: '' };
    let edited = false;
    child.stdout.on('data', (d: Buffer) => (run.stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      run.stderr += d.toString();
      // The user keeps working once the run has started from the tree: the baseline runs after the snapshot.
      if (!edited && run.stderr.includes('baseline: sleep')) {
        edited = true;
        appendFileSync(join(project, 'src/math.js'), '// edited during the run\n');
      }
    });
    run.code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect(edited, run.stderr).toBe(true);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('--apply refused: src/math.js changed since the run started from the working tree');
    const kept = join(out, 'fix.patch');
    expect(run.stderr).toContain(`The patch is kept in ${kept}`);
    expect(resultIn(out).status).toBe('tests_green');
    // Nothing was written: the user's edit is there, the bug too; the kept patch is the run's.
    expect(readFileSync(join(project, 'src/math.js'), 'utf8')).toBe(
      'export function add(a, b) {\n  return a - b;\n}\n// edited during the run\n',
    );
    expect(existsSync(kept)).toBe(true);
    expect(readFileSync(kept, 'utf8')).toBe(resultIn(out).patch);
    expect(readFileSync(kept, 'utf8')).toContain('+  return a + b;');
  });
});
