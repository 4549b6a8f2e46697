// A candidate's suite that failed only on flaky tests (docs/design.md §3.2.8) passes as any other: the
// tests the run knows are flaky count for nothing, and a test that passed before the candidate and
// fails with it is run again (`loop.flakyReruns` times) before it rejects the candidate. Only a
// candidate that fixed every failing test is worth those runs; one that did not is rejected anyway.
import type { GateResult } from '../../core/gate-result.ts';
import { namedFailures, onlyFlakyFailed } from '../../gate/flaky-tests.ts';
import { flakyOf, rerunFailing } from '../../gate/rerun-tests.ts';
import { packageScripts } from '../../runners/package-scripts.ts';

export interface FlakyFailuresInput {
  /** The run's flaky tests (AttemptContext.flaky). */
  flaky: ReadonlySet<string>;
  /** How many more times a new failure runs; 0: none does. */
  reruns: number;
  testCommand: string;
  /** The tests failing before the candidate: the candidate's to fix, never run again. */
  failingIds: ReadonlySet<string>;
  /** Where the candidate is written, and how a command runs there. */
  cwd: string;
  run: (command: string) => Promise<GateResult>;
  deadline: number;
  signal: AbortSignal;
}

export async function failedOnlyOnFlaky(full: GateResult, input: FlakyFailuresInput): Promise<boolean> {
  if (full.passed || full.reason !== 'NON_ZERO_EXIT') return false;
  if (onlyFlakyFailed(full, input.flaky)) return true;
  if (input.reruns === 0) return false;
  const failing = namedFailures(full.report);
  if (!failing || failing.length === 0) return false;
  const fresh = failing.filter((t) => !input.flaky.has(t.id));
  if (fresh.some((t) => input.failingIds.has(t.id))) return false;
  const rerun = await rerunFailing({
    run: input.run,
    testCommand: input.testCommand,
    packageScripts: await packageScripts(input.cwd),
    failing: fresh,
    reruns: input.reruns,
    deadline: input.deadline,
    signal: input.signal,
  });
  return rerun.command !== null && flakyOf(rerun.counts).length === fresh.length;
}
