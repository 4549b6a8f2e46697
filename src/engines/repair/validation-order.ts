// The order in which validation's workers take candidates: rank order until one passes; then, while
// the exploration lasts, that first plausible candidate's rivals at its line, then the candidates
// right after it. Workers share one such order, so each candidate is taken once whatever their number.
import type { RankedCandidate } from './rank-candidates.ts';

/** The exploration lasts at least this long, when `exploreMs` allows it. */
const MIN_EXPLORE_MS = 5_000;
/** And takes at least this many candidates after the first plausible one: its rivals, then the next in the engine's order. */
const MIN_EXPLORE_CANDIDATES = 20;

/** The candidates taken so far and what passed, with what of the validation's input the order depends on. */
export interface ValidationOrder {
  input: {
    /** In rank order; the first plausible candidate's rivals past the engine's cut are appended to it. */
    candidates: RankedCandidate[];
    exploreMs?: number;
    maxPlausible?: number;
    rivalsOf?: (first: RankedCandidate) => RankedCandidate[];
  };
  next: number;
  /** Indexes taken by a worker, in rank order or as a rival. */
  taken: Set<number>;
  /** Rivals of the first plausible candidate not taken yet, in the engine's order. */
  rivals: number[];
  /** Candidates taken since the first one passed, rivals included. */
  takenSinceFirst: number;
  winnerIndex: number;
  /** Indexes of the candidates that passed. */
  passed: Set<number>;
  /** Epoch milliseconds until which candidates are still taken after the first plausible one. */
  exploreUntil: number;
  /** Epoch milliseconds when the validation began. */
  started: number;
  /** Epoch milliseconds after which no candidate is taken after the first plausible one (`exploreMs` after it). */
  exploreEnd: number;
}

/** The next candidate's index: a rival of the first plausible candidate first, else the next in rank order. */
export function takeNext(run: ValidationOrder): number {
  if (run.passed.size > 0) run.takenSinceFirst++;
  for (let rival = run.rivals.shift(); rival !== undefined; rival = run.rivals.shift()) {
    if (!run.taken.has(rival)) {
      run.taken.add(rival);
      return rival;
    }
  }
  while (run.taken.has(run.next)) run.next++;
  const index = run.next++;
  run.taken.add(index);
  return index;
}

/**
 * Whether a worker takes the candidate at `index`: always before any passed; after, only while the
 * exploration lasts and fewer than `maxPlausible` passed (with no exploration, none ranked after the
 * winner, as when the first plausible candidate ended the validation).
 */
export function stillTaking(run: ValidationOrder, index: number): boolean {
  if (index < run.winnerIndex) return true;
  if (!((run.input.exploreMs ?? 0) > 0) || run.passed.size >= (run.input.maxPlausible ?? 1)) return false;
  const now = Date.now();
  if (now >= run.exploreEnd) return false;
  // Its rivals at its line, then the candidates right after it in the engine's order, are validated
  // (within `exploreMs`) however slow the machine, so what is found depends little on its load.
  return run.takenSinceFirst <= MIN_EXPLORE_CANDIDATES || now < run.exploreUntil;
}

/** Records a candidate that passed; the first one starts the exploration and queues its rivals. */
export function onePassed(run: ValidationOrder, index: number): void {
  // The exploration's clock starts with the first candidate that passes, whatever its rank, and
  // lasts no longer than finding it took (at least MIN_EXPLORE_MS): a fix found in seconds is not
  // held up for a minute, a search of minutes goes on long enough to meet its neighbours.
  if (run.passed.size === 0) {
    const now = Date.now();
    run.exploreEnd = now + (run.input.exploreMs ?? 0);
    run.exploreUntil = Math.min(run.exploreEnd, now + Math.max(MIN_EXPLORE_MS, now - run.started));
    queueRivals(run, index);
  }
  run.passed.add(index);
  run.winnerIndex = Math.min(run.winnerIndex, index);
}

/** The rivals of the first plausible candidate that no worker took yet, those past the list appended to it. */
function queueRivals(run: ValidationOrder, index: number): void {
  const { input } = run;
  const first = input.candidates[index];
  if (!first || !input.rivalsOf || !((input.exploreMs ?? 0) > 0)) return;
  for (const rival of input.rivalsOf(first)) {
    let at = input.candidates.findIndex((c) => c.file === rival.file && c.result === rival.result);
    if (at < 0) at = input.candidates.push(rival) - 1;
    if (!run.taken.has(at) && !run.rivals.includes(at)) run.rivals.push(at);
  }
}
