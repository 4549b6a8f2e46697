// Flakiness is measured, never repaired (docs/design.md §3.2.8): a test seen failing and passing on
// the same code is flaky. It is no engine's target and no regression; the report names it with its
// counts, and a run whose only failures are flaky ends `flaky`, with no patch.

/** A test that failed and passed on the same code, with its counts. */
export interface FlakyTest {
  id: string;
  /** How many times it ran on that code (the failing run that brought it here included). */
  runs: number;
  /** How many of those runs it did not pass. */
  failed: number;
  /**
   * Where it failed first: at the `baseline`, or, after passing at the baseline, in an `attempt`'s
   * gate or the `replay` of a patch (then it was run again on the patched code before it counted).
   */
  seen: 'baseline' | 'attempt' | 'replay';
}

/** What the run measured of flakiness (`loop.flakyReruns`); absent when it measured nothing. */
export interface Flakiness {
  /** How many more times each failing test ran (`loop.flakyReruns`). */
  reruns: number;
  /** The command that ran the baseline's failing tests again; null when none could (`notMeasured` says why). */
  command: string | null;
  /** The baseline's failing tests run again, flaky or not. */
  checked: number;
  /** Every flaky test the run found, at the baseline, in an attempt or in the replay. */
  tests: FlakyTest[];
  /** How long the baseline's reruns took. */
  durationMs: number;
  /** Why the baseline's failing tests could not be run again (a compound command, no test named). */
  notMeasured?: string;
  /**
   * A baseline that passed: the whole suite ran again (`reruns` times, `command`), and in how many of
   * all its runs, the baseline's included, it failed.
   */
  suiteRuns?: { runs: number; failed: number };
}

/** "failed 2 of 4 runs": a flaky test's evidence in words. */
export function flakyCountWords(test: Pick<FlakyTest, 'runs' | 'failed'>): string {
  return `failed ${test.failed} of ${test.runs} run${test.runs === 1 ? '' : 's'}`;
}
