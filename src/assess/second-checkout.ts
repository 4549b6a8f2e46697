// A second checkout of the original for the search for rival patches (rival-search.ts), where
// candidates run beside those in the assessment's own checkout. Made by copying the first as soon as
// its setup is done, before anything else runs there, its installed dependencies linked rather than
// copied (workspace/fork-tree.ts), as the `repair` engine forks its workspace; its runs are shown the
// linked folders. A Python environment in the checkout is not linked: an editable install in it
// names the first checkout's own sources, and a candidate run in the second would import those
// instead of its own. There, a second setup is made only when the first was quick (an install the
// cache restored), since a second full install would spend the search's time.
import { access, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { GateResult } from '../core/gate-result.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { cloneMirror } from '../workspace/create-workspace.ts';
import { forkTree } from '../workspace/fork-tree.ts';
import type { MirrorSeal } from '../workspace/mirror-seal.ts';
import { linkedFolderMounts } from '../workspace/tool-caches.ts';
import type { Mount } from '../sandbox/sandbox.ts';

/** A second checkout is set up anew only when the first's clone, setup and planning took at most this long. */
export const SECOND_SETUP_MS = 10_000;

/** Python environments, which a fork cannot link (above). */
const PYTHON_ENVIRONMENTS = ['.venv', 'venv'];

/** The original at `dir`, set up as the assessment's own checkout was; null when its setup fails. */
export async function secondCheckout(
  from: { mirror: string; baseSha: string; seal?: MirrorSeal },
  suite: SuiteRunner,
  dir: string,
): Promise<string | null> {
  await cloneMirror(from.mirror, from.baseSha, dir, from.seal);
  const setup = await suite.setup(dir);
  if (setup && setup.exitCode !== 0) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    return null;
  }
  return dir;
}

/**
 * The set-up checkout `from` copied to `dir`, its node_modules linked, and the suite that shows the
 * linked folders to the runs in `dir`; null when it holds a Python environment.
 */
export async function forkedCheckout(
  from: string,
  dir: string,
  suite: SuiteRunner,
): Promise<{ dir: string; suite: SuiteRunner } | null> {
  for (const name of PYTHON_ENVIRONMENTS) if (await exists(join(from, name))) return null;
  const linked = await forkTree(from, dir, new Set(['node_modules']));
  if (linked.length === 0) return { dir, suite };
  const mounts = linkedFolderMounts(linked);
  const inFork = (cwd: string) => cwd === dir || cwd.startsWith(`${dir}/`);
  const shown = <V extends { mounts?: Mount[] }>(cwd: string, view: V | undefined) =>
    inFork(cwd) ? { ...view, mounts: [...mounts, ...(view?.mounts ?? [])] } : view;
  return {
    dir,
    // The look from outside and the rival screen run plain processes in the fork too (rival-screen.ts).
    suite: {
      ...suite,
      gateWith: (cwd, command, timeoutMs, view): Promise<GateResult> => suite.gateWith(cwd, command, timeoutMs, shown(cwd, view)),
      plain: (cwd, command, timeoutMs, view) => suite.plain(cwd, command, timeoutMs, shown(cwd, view)),
    },
  };
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
