// The rival search's pool (rival-search.ts): candidates taken in order by one worker per checkout,
// each run in the checkout its worker holds.
/** What one step of the pool ran: the candidates that passed, where the next step starts, why it stopped. */
export interface PoolStep<C> {
  found: Array<{ index: number; candidate: C }>;
  next: number;
  stopped?: 'time' | 'enough';
  error?: Error;
}

/**
 * Candidates from `from` on, one worker per checkout, each taking the next: the failing tests alone
 * are one process each, and two of them share the machine's cores. The second checkout joins when it
 * is ready, unless the first worker is done before. Both workers have settled when it returns (a
 * worker still running would rewrite its checkout).
 */
export async function runInCheckouts<C>(
  at: { candidates: C[]; from: number; max: number; first: string; second: Promise<string | null> },
  /** Whether the candidate passed the failing tests. */
  run: (dir: string, candidate: C) => Promise<boolean>,
  outOfTime: () => boolean,
): Promise<PoolStep<C>> {
  const step: PoolStep<C> = { found: [], next: at.from };
  const work = async (dir: string) => {
    while (step.next < at.candidates.length && step.stopped === undefined) {
      if (step.found.length >= at.max || outOfTime()) {
        step.stopped = step.found.length >= at.max ? 'enough' : 'time';
        return;
      }
      const index = step.next++;
      const candidate = at.candidates[index] as C;
      if (await run(dir, candidate)) step.found.push({ index, candidate });
    }
  };
  const first = work(at.first);
  const ready = await Promise.race([
    at.second,
    first.then(
      () => null,
      () => null,
    ),
  ]);
  const settled = await Promise.allSettled([first, ready ? work(ready) : Promise.resolve()]);
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) step.error = failed.reason as Error;
  return step;
}
