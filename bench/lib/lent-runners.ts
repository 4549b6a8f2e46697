// The bench's user: a folder of their own, first on PATH, linking to this Node (every bench's
// projects run on it, whatever `node` the machine has) and, for projects whose runner is a package,
// to fixloop's vitest, jest and mocha, as the tests lend them (test/support/borrowed-runners.ts).
// fixloop drops its own node_modules folders from the PATH a repository's commands get, so what is
// lent must come from the user's; FIXLOOP_SANDBOX_BIND shows the folders to an isolating sandbox, as
// an operator would.
import { mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';

const MODULES = resolve(import.meta.dirname, '..', '..', 'node_modules');
const RUNNERS = ['vitest', 'jest', 'mocha'];

export type Lent = { PATH: string; FIXLOOP_SANDBOX_BIND: string };

const folders = new Map<boolean, string>();

/** Node alone, or Node and the runners: made once per process each. */
function lent(runners: boolean): Lent {
  const node = realpathSync(process.execPath);
  let folder = folders.get(runners);
  if (!folder) {
    folder = mkdtempSync(join(tmpdir(), runners ? 'fixloop-bench-runners-' : 'fixloop-bench-node-'));
    symlinkSync(node, join(folder, 'node'));
    if (runners) for (const runner of RUNNERS) symlinkSync(realpathSync(join(MODULES, '.bin', runner)), join(folder, runner));
    folders.set(runners, folder);
  }
  const shown = runners ? [MODULES, dirname(node), folder] : [dirname(node), folder];
  return { PATH: `${folder}${delimiter}${process.env.PATH ?? ''}`, FIXLOOP_SANDBOX_BIND: shown.join(':') };
}

/** The bench's user with Node 24 first on PATH. */
export const lentNode = (): Lent => lent(false);

/** The same user with fixloop's vitest, jest and mocha beside it. */
export const lentRunners = (): Lent => lent(true);
