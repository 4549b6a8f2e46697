// Repositories in the tests have no node_modules of their own: they borrow fixloop's test runners
// (vitest, jest, mocha), as a user's PATH would bring the user's. fixloop drops its own
// `node_modules/.bin` from the PATH a repository's commands get (src/sandbox/user-path.ts: a fix
// verified on fixloop's tools proves nothing about the user's), so the tests give their user a folder
// of their own linking to those runners, and bind fixloop's node_modules in for isolating sandboxes,
// as an operator would (FIXLOOP_SANDBOX_BIND). That user's Node is 24 (fixloop's own binary, lent the
// same way): vitest 5 needs Node 22 or newer, and the machine's is 20.
import { mkdtempSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const MODULES = resolve(import.meta.dirname, '../../node_modules');
/** The user has their own package managers: fixloop's are never lent. */
const NOT_LENT = new Set(['npm', 'npx', 'corepack']);

let folder: string | null = null;

function borrowedFolder(): string {
  if (folder) return folder;
  const made = mkdtempSync(join(tmpdir(), 'fixloop-user-runners-'));
  const bin = join(MODULES, '.bin');
  for (const name of readdirSync(bin)) if (!NOT_LENT.has(name)) symlinkSync(realpathSync(join(bin, name)), join(made, name));
  folder = made;
  return made;
}

/** The environment of a user whose PATH finds Node 24, vitest, jest and mocha (the folder is left for the OS's temp cleanup: every test file of the process shares it). */
export function borrowedRunners(path = process.env.PATH ?? ''): { PATH: string; FIXLOOP_SANDBOX_BIND: string } {
  const bin = borrowedFolder();
  return { PATH: `${bin}:${path}`, FIXLOOP_SANDBOX_BIND: `${MODULES}:${bin}` };
}
