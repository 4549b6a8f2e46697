// A second checkout of the original for the search for rival patches (rival-search.ts), where
// candidates run beside those in the assessment's own checkout: made only when the first was set up
// quickly (an install the cache restored), since a second full install would spend the search's time.
import { rm } from 'node:fs/promises';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { cloneMirror } from '../workspace/create-workspace.ts';
import type { MirrorSeal } from '../workspace/mirror-seal.ts';

/** A second checkout is made when the first's clone, setup and planning took at most this long. */
export const SECOND_SETUP_MS = 10_000;

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
