// A failing check's failed step, read with the clone's package.json: a step that starts no test runner
// is the run's check; one that runs the tests is its test command when none is configured.
import { afterAll, describe, expect, it } from 'vitest';
import { defaultRepoConfig } from '../../src/core/repo-config.ts';
import { withFailedStep } from '../../src/loop/failed-step.ts';
import { makeRepo, removeAll } from '../support/git-fixture.ts';

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

async function root(): Promise<string> {
  const dir = await makeRepo(
    { 'package.json': JSON.stringify({ scripts: { test: 'node --test', lint: 'eslint src' } }) },
    { git: false },
  );
  dirs.push(dir);
  return dir;
}

describe('withFailedStep', () => {
  const config = { ...defaultRepoConfig(), test: { ...defaultRepoConfig().test, command: 'node --test' } };

  it('makes a step that runs no test runner the check, with the fixers first', async () => {
    const { config: stepped, note } = await withFailedStep(config, 'npm run lint', await root());
    expect(stepped).toMatchObject({ checks: ['npm run lint'], engines: ['fixers', 'repair'] });
    expect(note).toContain('is no test suite');
  });

  it('leaves a step that runs the tests to the suite, and makes it the test command when there is none', async () => {
    const dir = await root();
    expect(await withFailedStep(config, 'npm test', dir)).toEqual({ config, note: null });
    const none = defaultRepoConfig();
    const stepped = await withFailedStep(none, 'npm test', dir);
    expect(stepped.config.test.command).toBe('npm test');
    expect(stepped.config.checks).toEqual([]);
  });

  it('changes nothing without a step', async () => {
    expect(await withFailedStep(config, undefined, await root())).toEqual({ config, note: null });
  });
});
