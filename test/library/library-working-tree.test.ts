// The library's `run` on a repository with uncommitted work: it starts from the working tree as
// `fixloop run` does, or from HEAD with `workingTree: false`, and leaves the repository as it was.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FixloopInputError, run, type RunOptions } from '../../src/lib.ts';
import { git, removeAll } from '../support/git-fixture.ts';
import { calcRepo, treeFingerprint, libraryTempDir } from './calc-repo.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const tempDir = () => libraryTempDir(dirs);

/** The calc repository with its fix written but not committed. */
async function fixedButUncommitted(): Promise<string> {
  const dir = await calcRepo();
  dirs.push(dir);
  writeFileSync(join(dir, 'src/math.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
  return dir;
}

describe('run (the library) on a working tree with uncommitted changes', { timeout: 180_000 }, () => {
  it('starts from the working tree by default: the uncommitted fix leaves nothing to fix, and the repository is untouched', async () => {
    const project = await fixedButUncommitted();
    const before = treeFingerprint(project);
    const outcome = await run(project, { taskId: 'calc', testCommand: 'node --test', artifactsDir: await tempDir() });
    expect(outcome.status).toBe('nothing_to_fix');
    expect(outcome.result.repository.workingTree).toMatchObject({
      head: git(project, 'rev-parse', 'HEAD').trim(),
      included: true,
      files: [{ path: 'src/math.js', state: 'modified' }],
    });
    expect(treeFingerprint(project)).toEqual(before);
  });

  it('starts from HEAD with workingTree: false', async () => {
    const project = await fixedButUncommitted();
    const outcome = await run(project, {
      taskId: 'calc',
      testCommand: 'node --test',
      engines: ['script'],
      scriptCommand: 'true',
      attemptLimit: 1,
      workingTree: false,
      artifactsDir: await tempDir(),
    });
    expect(outcome.status).not.toBe('nothing_to_fix');
    expect(outcome.result.baseline).toMatchObject({ failed: 1 });
    expect(outcome.result.repository.workingTree).toMatchObject({ included: false });
  });

  it('names a workingTree that is not a boolean', async () => {
    const project = await fixedButUncommitted();
    const error: unknown = await run(project, {
      taskId: 'calc',
      testCommand: 'node --test',
      workingTree: 'yes',
    } as unknown as RunOptions).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FixloopInputError);
    expect((error as FixloopInputError).problems).toEqual([
      expect.objectContaining({ option: 'workingTree', code: 'INVALID_OPTION' }),
    ]);
  });
});
