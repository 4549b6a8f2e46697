// The files a judged run's runtime guard takes as the runner's configuration or the tests' setup
// (docs/design.md §3.2.7): a frame in one is not the code's, and a read of the tests from one is
// nobody's. Only names the judge protects qualify (a patch that changes one is `runner_changed`). By
// name alone any file the patch adds could be one (`src/jest.config.js`, `lib/test.setup.js`, a new
// `conftest.py`), so the judge lists them: the files so named in the pristine checkout's index (the
// baseline: the patch is applied to the work tree alone) that the patch left as they were. A file
// the patch adds or changes is the code's, and one written while the tests run is in no list.
import { createRequire } from 'node:module';
import { plainGit } from '../workspace/plain-git.ts';
import { protectedByName } from './runner-files.ts';

/** The Node guard's own patterns (one source for both sides): a name the guard knows the list is made of. */
const names = createRequire(import.meta.url)('../runners/node-guard/guard-names.cjs') as {
  CODE: RegExp;
  RUNNER_CONFIG: RegExp;
  SETUP: RegExp;
};

/**
 * A configuration or setup file by its name, to either guard (pytest's: `conftest.py`). Only a file the
 * judge protects (runner-files.ts): what the guard takes as the runner's or the tests' side, no patch
 * may change.
 */
export function exemptByName(path: string): boolean {
  const named =
    path === 'conftest.py' ||
    path.endsWith('/conftest.py') ||
    names.RUNNER_CONFIG.test(path) ||
    (names.CODE.test(path) && names.SETUP.test(path));
  return named && protectedByName(path);
}

/**
 * The files so named in the index of `dir` (the replay's checkout, the patch applied to its work tree
 * only) whose work-tree copy is unchanged. A checkout git cannot list gives none: nothing is exempt.
 */
export async function exemptFiles(dir: string): Promise<string[]> {
  const [listed, changed] = await Promise.all([
    plainGit(dir, ['ls-files', '-z']).catch(() => ''),
    plainGit(dir, ['diff', '--name-only', '--no-renames', '-z']).catch(() => null),
  ]);
  if (changed === null) return [];
  const touched = new Set(changed.split('\0'));
  return listed.split('\0').filter((path) => path !== '' && exemptByName(path) && !touched.has(path));
}
