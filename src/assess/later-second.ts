// Where the search for rivals after the look (assess-rivals.ts) runs beside the assessment's own
// checkout, when none was begun beside the look (early-rivals.ts). Each candidate is one process of
// the runner on the failing tests alone, and one worker per checkout takes them: with a single
// checkout the machine's other core waits. So a copy of the checkout is made as soon as it is set
// up, before the look writes anything there, its dependencies linked (second-checkout.ts, as the
// early search's is); where no copy can be made (a Python environment in the checkout), a checkout
// set up anew when that was quick. Why: a vitest project whose install takes ten seconds had one
// worker, and its search ran out of time after 15 of its 48 candidates.
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import type { RivalComparison } from './assess-rivals.ts';
import { searchEarly, secondWorkerWanted, type EarlySearch } from './early-rivals.ts';
import { forkedCheckout, secondCheckout } from './second-checkout.ts';

/**
 * What the search after the look is given for its second worker, and the suite that shows a copy its
 * linked folders: nothing when the search cannot be wanted or there is no core for it.
 */
export interface LaterSecond {
  second?: NonNullable<RivalComparison['second']>;
  suite?: SuiteRunner;
}

export async function laterSecond(
  of: { suite: SuiteRunner; fixed: readonly unknown[]; searchRivals?: boolean },
  prepared: { others: readonly unknown[]; focused: readonly string[] },
  at: { dir: string; setUpAgain: (() => Promise<string | null>) | null },
): Promise<LaterSecond> {
  if (!secondWorkerWanted(of, prepared)) return {};
  // A copy that failed part way leaves its folder: no checkout is set up anew there.
  const forked = await forkedCheckout(at.dir, `${at.dir}-b`, of.suite).catch(() => undefined);
  if (forked) return { second: async () => forked.dir, suite: forked.suite };
  return forked === null && at.setUpAgain ? { second: at.setUpAgain } : {};
}

/**
 * The search begun beside the look (early-rivals.ts) or, when it is not, the second checkout of the
 * search after it; and the suite that shows either checkout what it links (the rival screen's).
 * `quick`: the first checkout's clone, setup and planning were quick, so a second setup is worth
 * making where no copy can be (second-checkout.ts).
 */
export async function rivalCheckouts(
  input: Parameters<typeof searchEarly>[0] & Parameters<typeof secondCheckout>[0],
  prepared: Parameters<typeof searchEarly>[1],
  at: { dir: string; left: () => number; quick: boolean },
): Promise<{ early: EarlySearch | null; later: LaterSecond; suite: SuiteRunner }> {
  const setUpAgain = at.quick ? () => secondCheckout(input, input.suite, `${at.dir}-b`) : null;
  const early = await searchEarly(input, prepared, { dir: at.dir, left: at.left, setUpAgain });
  const later = early ? {} : await laterSecond(input, prepared, { dir: at.dir, setUpAgain });
  return { early, later, suite: early?.suite ?? later.suite ?? input.suite };
}
