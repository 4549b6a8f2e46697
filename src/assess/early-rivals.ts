// The search for rivals begun beside the look (docs/design.md §3.3). The look runs the suite on each
// version in the assessment's checkout, one process at a time; the search runs candidates on the
// failing tests alone, needing nothing the look finds. So, when a second checkout is worth making
// (second-checkout.ts), the search starts in it as the look starts, on the machine's other core,
// and the first checkout joins it once the look is done, if the search is still wanted (nothing
// else kept the patch from `verified`); when it is not, it stops after the run under way. Begun
// only where the search could be wanted: the engine offered no alternative and the patch fixed
// named tests. Why: on a suite that takes a while, the look alone spent the budget before a single
// candidate ran, and a search cut short is `review` (assessment-level.ts, `unfinishedReason`).
// It costs CPU the look may not need (a patch that ends at `review` anyway), so it begins only
// where that pays: a core is left for it, and the suite takes long enough that the look, two to
// four runs of it, leaves the search real time. Where the suite runs in a second or two, the search
// after the look ends within the budget anyway.
import { availableParallelism } from 'node:os';
import type { TestCaseResult } from '../core/test-report.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { rivalBasis, searchOf, type BegunSearch, type RivalBasis } from './assess-rivals.ts';
import type { PatchedVersion } from './patched-versions.ts';
import type { ProbeCheckout } from './probe-checkout.ts';
import type { VersionPlan } from './probe-plan.ts';
import { startRivalSearch } from './rival-search.ts';
import { writeTexts } from './checkout-texts.ts';
import { forkedCheckout } from './second-checkout.ts';

/** The suite's time at the baseline from which the search begins beside the look. */
export const BESIDE_LOOK_FROM_SUITE_MS = 5000;

export interface EarlySearch {
  /** The suite its runs are made with: it shows a copied checkout its linked folders (second-checkout.ts). */
  suite: SuiteRunner;
  /** The search, once its checkout is set up and the patch ran on the failing tests there (null: it could not begin). */
  begun: Promise<BegunSearch | null>;
  /**
   * The look is done and wants the search, until `searchUntil` (epoch ms): the first checkout joins it
   * once `written` is written back there. The search as begun.
   */
  want(written: ReadonlyMap<string, string | null>, searchUntil: number): Promise<BegunSearch | null>;
  /** Stops the search if it is still going (not wanted) and waits until no run of it is under way. */
  settle(): Promise<void>;
}

/**
 * The search begun beside the look where it could be wanted (the engine offered no alternative and
 * the patch fixed named tests, which can run alone) and pays (above), in a copy of the look's
 * checkout made now, before the look writes anything there (second-checkout.ts), or, where no copy
 * can be made, in a checkout set up anew by `setUpAgain` (null: none); null when it is not begun.
 */
export async function searchEarly(
  of: {
    suite: SuiteRunner;
    fixed: readonly TestCaseResult[];
    log: (line: string) => void;
    searchRivals?: boolean;
    suiteMs?: number;
  },
  prepared: {
    chosen: PatchedVersion;
    others: readonly unknown[];
    originals: ReadonlyMap<string, string | null>;
    checkout: ProbeCheckout;
    testFiles: readonly string[];
    focused: readonly string[];
    plans: { original: VersionPlan };
  },
  at: { dir: string; left: () => number; setUpAgain: (() => Promise<string | null>) | null },
): Promise<EarlySearch | null> {
  const { chosen, originals, checkout, testFiles, focused, plans } = prepared;
  if (!secondWorkerWanted(of, prepared) || (of.suiteMs ?? 0) < BESIDE_LOOK_FROM_SUITE_MS) return null;
  const basis = rivalBasis(of, { chosen, originals, checkout, testFiles, focused, left: at.left }, plans.original);
  const forked = await forkedCheckout(at.dir, `${at.dir}-b`, basis.suite).catch(() => null);
  if (forked) return beginRivalSearch({ ...basis, suite: forked.suite }, async () => forked.dir, at.left);
  return at.setUpAgain ? beginRivalSearch(basis, at.setUpAgain, at.left) : null;
}

/**
 * Whether the rivals' search could be wanted (the engine offered no alternative, and the patch fixed
 * named tests that can run alone) and a second core is there for a second worker of it.
 */
export function secondWorkerWanted(
  of: { fixed: readonly unknown[]; searchRivals?: boolean },
  prepared: { others: readonly unknown[]; focused: readonly string[] },
): boolean {
  const wanted = prepared.others.length === 0 && of.searchRivals === true && of.fixed.length > 0 && prepared.focused.length > 0;
  return wanted && availableParallelism() >= 2;
}

/** The search begun in the checkout `makeCheckout` makes, the first checkout (`comparison.checkout`) joining when wanted. */
export function beginRivalSearch(
  comparison: RivalBasis,
  makeCheckout: () => Promise<string | null>,
  left: () => number,
): EarlySearch {
  const cancel = new AbortController();
  let searchEnd: number | null = null;
  // Where the first checkout joins: its folder once the look wants the search, null when not.
  const { promise: joined, resolve: join } = Promise.withResolvers<string | null>();
  let told = false;
  // A search that could not begin (its checkout, the patch's own run) leaves the comparison its own.
  const begun = (async (): Promise<BegunSearch | null> => {
    const dir = await makeCheckout().catch(() => null);
    if (!dir || cancel.signal.aborted) return null;
    await writeTexts(dir, comparison.written);
    const search = { ...searchOf(comparison, dir), second: { ready: () => joined, made: false } };
    const searcher = await startRivalSearch(search, left());
    if (!searcher) return null;
    // Until the look is done the search may go on to the budget's end; then it has its share.
    const first = searcher.next(comparison.max, () => searchEnd ?? Date.now() + left(), cancel.signal);
    return { searcher, first };
  })().catch(() => null);
  const stop = () => {
    if (told) return;
    told = true;
    cancel.abort();
    join(null);
  };
  return {
    begun,
    suite: comparison.suite,
    want(written, searchUntil) {
      if (!told) {
        told = true;
        searchEnd = searchUntil;
        const { dir } = comparison.checkout;
        writeTexts(dir, written).then(
          () => join(dir),
          () => join(null),
        );
      }
      return begun;
    },
    async settle() {
      stop();
      const search = await begun.catch(() => null);
      if (!search) return;
      await search.first.catch(() => undefined);
      await search.searcher?.close();
    },
  };
}
