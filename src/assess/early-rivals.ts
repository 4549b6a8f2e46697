// The search for rivals begun beside the look (docs/design.md §3.3). The look runs the suite on each
// version in the assessment's checkout, one process at a time; the search runs candidates on the
// failing tests alone, needing nothing the look finds. So, when a second checkout is worth making
// (second-checkout.ts), the search starts in it as the look starts, on the machine's other core,
// and the first checkout joins it once the look is done, if the search is still wanted (nothing
// else kept the patch from `verified`); when it is not, it stops after the run under way. Begun
// only where the search could be wanted: the engine offered no alternative and the patch fixed
// named tests. Why: on a suite that takes a while, the look alone spent the budget before a single
// candidate ran, and a search cut short is `review` (assessment-level.ts, `unfinishedReason`).
import { searchOf, type BegunSearch, type RivalBasis } from './assess-rivals.ts';
import { startRivalSearch, writeTexts } from './rival-search.ts';

/** The look is over: whether the search is still wanted, and if so until when, with the files to write back first. */
export type LookOutcome = { wanted: true; written: ReadonlyMap<string, string | null>; searchUntil: number } | { wanted: false };

export interface EarlySearch {
  /** The search, once its checkout is set up and the patch ran on the failing tests there (null: it could not begin). */
  begun: Promise<BegunSearch | null>;
  /** Said once, when the look is done: the first checkout joins the search, or the search stops. */
  lookDone(outcome: LookOutcome): void;
  /** Stops the search if it is still going and waits until no run of it is under way. */
  settle(): Promise<void>;
}

export function beginRivalSearch(
  comparison: RivalBasis,
  makeCheckout: () => Promise<string | null>,
  left: () => number,
): EarlySearch {
  const cancel = new AbortController();
  let searchEnd: number | null = null;
  let join: (dir: string | null) => void = () => undefined;
  const joined = new Promise<string | null>((resolve) => {
    join = resolve;
  });
  let told = false;
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
  })();
  const lookDone = (outcome: LookOutcome) => {
    if (told) return;
    told = true;
    if (!outcome.wanted) {
      cancel.abort();
      join(null);
      return;
    }
    searchEnd = outcome.searchUntil;
    const { dir } = comparison.checkout;
    writeTexts(dir, outcome.written).then(
      () => join(dir),
      () => join(null),
    );
  };
  return {
    begun,
    lookDone,
    async settle() {
      lookDone({ wanted: false });
      const search = await begun.catch(() => null);
      if (!search) return;
      await search.first.catch(() => undefined);
      await search.searcher?.close();
    },
  };
}
