// A repository of given files with fixloop's own node_modules linked in (its runners, as a user's PATH
// would bring them), and the suite runner of a test command on it under the `process` sandbox: the
// judge's looks at the fixed tests (copies, changed expectations) are run against it.
import { symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { defaultRepoConfig } from '../../src/core/repo-config.ts';
import { createSuiteRunner, type SuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';
import { makeRepo } from './git-fixture.ts';

/** `env`: added to the PATH that finds the linked runners (pytest's plugin autoload is off: nothing here uses it). */
export async function localSuite(
  files: Record<string, string>,
  command: string,
  env: Record<string, string> = {},
): Promise<{ root: string; suite: SuiteRunner }> {
  const root = await makeRepo(files);
  await symlink(resolve(import.meta.dirname, '../../node_modules'), join(root, 'node_modules'));
  const config = defaultRepoConfig();
  config.test.command = command;
  config.env = {
    PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
    PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1',
    ...env,
  };
  const suite = createSuiteRunner({
    sandbox: createProcessSandbox(),
    config,
    signal: new AbortController().signal,
    setupNetwork: false,
  });
  return { root, suite };
}
