// The library's `run`, called in-process: each outcome's shape on a real repository with a real
// `node --test` suite, and input refused before anything runs, each problem named by its option.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FixloopInputError, run, type RunOptions } from '../../src/lib.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';
import { CALC_FILES, calcRepo, treeFingerprint, libraryTempDir } from './calc-repo.ts';
import { fullSuite } from '../support/suite-tier.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

const tempDir = () => libraryTempDir(dirs);

async function repo(files: Record<string, string> = CALC_FILES): Promise<string> {
  const dir = files === CALC_FILES ? await calcRepo() : await makeRepo(files);
  dirs.push(dir);
  return dir;
}

/** The error `run` throws for these arguments (the test fails if it resolves). */
async function refused(repositoryPath: string, options: unknown): Promise<FixloopInputError> {
  const error: unknown = await run(repositoryPath, options as RunOptions).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FixloopInputError);
  return error as FixloopInputError;
}

describe('run (the library)', () => {
  it.runIf(fullSuite)(
    'failed_to_green: the attempts are spent, the last output and every attempt’s diff are kept, the repository is untouched',
    async () => {
      const project = await repo();
      const before = treeFingerprint(project);
      const artifactsDir = join(await tempDir(), 'artifacts');
      // A diff an earlier run of the same task left: replaced, never passed off as this run's.
      mkdirSync(artifactsDir);
      writeFileSync(join(artifactsDir, 'calc-9.diff'), 'stale\n');
      writeFileSync(join(artifactsDir, 'other-task-1.diff'), 'kept\n');

      const outcome = await run(project, {
        taskId: 'calc',
        testCommand: 'node --test',
        attemptLimit: 1,
        engines: ['script'],
        scriptCommand: "echo '// still wrong' >> src/math.js",
        artifactsDir,
      });

      expect(outcome.status).toBe('failed_to_green');
      if (outcome.status !== 'failed_to_green') return;
      expect(outcome.attempts).toBe(1);
      expect(outcome.stopReason).toBe('max_attempts');
      expect(outcome.result.status).toBe('failed_to_green');
      expect(outcome).not.toHaveProperty('patch');
      // The last attempt's log: the engine's command and the test run that still fails.
      expect(outcome.lastOutput).toContain("echo '// still wrong'");
      expect(outcome.lastOutput).toContain('add sums two numbers');
      expect(outcome.lastOutput).toContain('AssertionError');
      expect(outcome.diffs).toEqual([join(artifactsDir, 'calc-1.diff')]);
      expect(readFileSync(join(artifactsDir, 'calc-1.diff'), 'utf8')).toContain('+// still wrong');
      expect(readdirSync(artifactsDir).sort()).toEqual(['calc', 'calc-1.diff', 'other-task-1.diff']);
      expect(existsSync(join(artifactsDir, 'calc', 'result.json'))).toBe(true);
      expect(treeFingerprint(project)).toEqual(before);
    },
  );

  it('tests_green: the verified patch, and the diff of each attempt as <taskId>-<attempt>.diff', async () => {
    const project = await repo();
    const artifactsDir = await tempDir();
    const phases: string[] = [];
    const outcome = await run(project, {
      taskId: 'calc.add_1',
      testCommand: 'node --test',
      engines: ['script'],
      scriptCommand: "sed -i 's/a - b/a + b/' src/math.js",
      artifactsDir,
      onProgress: (p) => phases.push(p.phase),
    });
    expect(outcome.status, outcome.result.headline).toBe('tests_green');
    if (outcome.status !== 'tests_green') return;
    expect(outcome.attempts).toBe(1);
    expect(outcome.patch).toContain('+  return a + b;');
    expect(outcome.patch).toBe(outcome.result.patch);
    expect(outcome.result.verification).toMatchObject({ replayed: true, passed: true });
    // The level the assessment set (null when none ran), as the full result has it.
    expect(outcome.level).toBe(outcome.result.assessment?.level ?? null);
    expect(readFileSync(join(artifactsDir, 'calc.add_1-1.diff'), 'utf8')).toBe(outcome.patch);
    expect(phases).toEqual(expect.arrayContaining(['clone', 'baseline', 'attempt', 'verify', 'done']));
  });

  // Full tier: a cancelled run in test/integration/cli-cancel.test.ts.
  it.runIf(fullSuite)('cancelled: aborting the signal stops the run, the outcome says so', async () => {
    const project = await repo();
    const controller = new AbortController();
    const outcome = await run(project, {
      taskId: 'calc',
      testCommand: 'node --test',
      engines: ['script'],
      scriptCommand: 'sleep 600',
      artifactsDir: await tempDir(),
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'attempt') controller.abort();
      },
    });
    expect(outcome.status).toBe('failed_to_green');
    expect(outcome.status === 'failed_to_green' && outcome.stopReason).toBe('cancelled');
  });

  // Full tier: nothing to fix in test/integration/app-e2e.test.ts.
  it.runIf(fullSuite)('nothing_to_fix: a suite that passes runs no attempt', async () => {
    const project = await repo({ ...CALC_FILES, 'src/math.js': 'export function add(a, b) {\n  return a + b;\n}\n' });
    const outcome = await run(project, { taskId: 'calc', testCommand: 'node --test', artifactsDir: await tempDir() });
    expect(outcome.status).toBe('nothing_to_fix');
    expect(outcome.attempts).toBe(0);
    expect(outcome.diffs).toEqual([]);
  });

  it('error: a test command that cannot run ends the run before any engine, with a code and a message', async () => {
    const project = await repo();
    const outcome = await run(project, {
      taskId: 'calc',
      testCommand: 'no-such-test-runner-here --all',
      artifactsDir: await tempDir(),
    });
    expect(outcome.status).toBe('error');
    if (outcome.status !== 'error') return;
    expect(outcome.attempts).toBe(0);
    expect(outcome.error.message).toContain('no-such-test-runner-here');
    expect(outcome.error).toEqual(outcome.result.error);
  });
});

describe('run refuses bad input before anything runs', () => {
  it('names a missing testCommand', async () => {
    const project = await repo();
    const error = await refused(project, { taskId: 'calc' });
    expect(error).toMatchObject({ code: 'MISSING_OPTION', option: 'testCommand' });
    expect(error.message).toBe('fixloop: `testCommand` is required');
  });

  it.each([0, -1, 1.5, '3', 101])('names attemptLimit when it is %j', async (attemptLimit) => {
    const project = await repo();
    const error = await refused(project, { taskId: 'calc', testCommand: 'node --test', attemptLimit });
    expect(error).toMatchObject({ code: 'INVALID_OPTION', option: 'attemptLimit' });
    expect(error.message).toContain('`attemptLimit` must be a positive integer (at most 100)');
  });

  it('names a repository path that does not exist, or is a file', async () => {
    const dir = await tempDir();
    const missing = await refused(join(dir, 'nowhere'), { taskId: 'calc', testCommand: 'node --test' });
    expect(missing).toMatchObject({ code: 'REPOSITORY_NOT_FOUND', option: 'repositoryPath' });
    expect(missing.message).toContain(`${join(dir, 'nowhere')}" does not exist`);
    writeFileSync(join(dir, 'file'), '');
    expect((await refused(join(dir, 'file'), { taskId: 'calc', testCommand: 'node --test' })).message).toContain(
      'is not a directory',
    );
  });

  it('lists every problem of one call, each with its option, and writes nothing', async () => {
    const project = await repo();
    const artifactsDir = join(await tempDir(), 'never-made');
    const error = await refused(project, {
      taskId: '../escape',
      testComand: 'node --test',
      attemptLimit: 0,
      engines: ['repair', 'magic'],
      sandbox: 'vm',
      artifactsDir,
    });
    expect(error.problems.map((p) => [p.code, p.option])).toEqual([
      ['INVALID_OPTION', 'taskId'],
      ['MISSING_OPTION', 'testCommand'],
      ['INVALID_OPTION', 'attemptLimit'],
      ['INVALID_OPTION', 'engines'],
      ['INVALID_OPTION', 'sandbox'],
      ['UNKNOWN_OPTION', 'testComand'],
    ]);
    expect(error.message).toMatch(/^fixloop: 6 problems: `taskId` names files/);
    expect(error.message).toContain('unknown "magic"');
    expect(error.option).toBe('taskId');
    expect(existsSync(artifactsDir)).toBe(false);
  });

  it('names scriptCommand when the script engine has none', async () => {
    const project = await repo();
    const error = await refused(project, { taskId: 'calc', testCommand: 'node --test', engines: ['script'] });
    expect(error).toMatchObject({ code: 'MISSING_OPTION', option: 'scriptCommand' });
  });

  it('refuses an artifacts folder inside the repository, which a run never writes', async () => {
    const project = await repo();
    const error = await refused(project, { taskId: 'calc', testCommand: 'node --test', artifactsDir: join(project, 'out') });
    expect(error).toMatchObject({ code: 'INVALID_OPTION', option: 'artifactsDir' });
    expect(existsSync(join(project, 'out'))).toBe(false);
  });

  it('names an artifacts folder that cannot be made', async () => {
    const project = await repo();
    const file = join(await tempDir(), 'a-file');
    writeFileSync(file, '');
    const error = await refused(project, { taskId: 'calc', testCommand: 'node --test', artifactsDir: join(file, 'artifacts') });
    expect(error).toMatchObject({ code: 'INVALID_OPTION', option: 'artifactsDir' });
    expect(error.message).toContain('cannot be written');
  });

  it('names the agent engine’s missing model in env', async () => {
    const project = await repo();
    const error = await refused(project, { taskId: 'calc', testCommand: 'node --test', engines: ['agent'], env: {} });
    expect(error).toMatchObject({ code: 'INVALID_OPTION', option: 'env' });
    expect(error.message).toContain('FIXLOOP_MODEL');
  });

  it('names the key of a bad fixloop.yml in the repository', async () => {
    const project = await repo({ ...CALC_FILES, 'fixloop.yml': 'loop:\n  maxAtempts: 3\n' });
    const error = await refused(project, { taskId: 'calc', testCommand: 'node --test' });
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', option: null });
    expect(error.message).toContain('maxAtempts');
  });

  it('needs the options at all', async () => {
    const project = await repo();
    expect(await refused(project, undefined)).toMatchObject({ code: 'MISSING_OPTION', option: 'options' });
  });
});
