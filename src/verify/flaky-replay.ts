// Flaky tests in the replay (docs/design.md §3.2.8): a flaky test's outcome counts for nothing, a
// test that passed at the baseline and fails here is run again on the patched checkout before it is a
// regression (one that passes again is flaky too, named, not counted), and a patch whose only effect
// on the suite is the outcome of flaky tests is no fix.
import type { Finding } from '../core/findings.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { TestReport } from '../core/test-report.ts';
import { confirmNewFailures, namedFailures, onlyFlakyFailed, type FlakyTests } from '../gate/flaky-tests.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import type { TestComparison } from './compare-tests.ts';
import { guardFindings } from './guard-findings.ts';

export interface FlakyReplayInput {
  baseline: TestReport;
  gate: GateResult;
  comparison: TestComparison;
  /** The run's flaky tests; absent when the run measures none (a stored run replayed before they existed). */
  flaky: FlakyTests | undefined;
  /** The replay's judged suite, in `dir`. */
  suite: SuiteRunner;
  dir: string;
  log: (line: string) => void;
}

export interface FlakyReplay {
  /** The comparison without the flaky tests: their passing or failing is neither a fix nor a regression. */
  comparison: TestComparison;
  /** The flaky tests whose outcome here counted for nothing, sorted. */
  discounted: string[];
  /** The suite failed, and only on flaky tests. */
  onlyFlakyFailed: boolean;
  /** What the reruns' runtime guard saw, and a patch that changes only flaky outcomes. */
  findings: Finding[];
}

export async function judgeFlakyReplay(input: FlakyReplayInput): Promise<FlakyReplay> {
  const { baseline, gate, flaky } = input;
  if (!flaky) return { comparison: input.comparison, discounted: [], onlyFlakyFailed: false, findings: [] };
  const reruns = await confirmNewFailures({
    gate,
    baseline,
    flaky,
    seen: 'replay',
    cwd: input.dir,
    testCommand: input.suite.testCommand,
    run: (command) => input.suite.gateWith(input.dir, command),
    log: (line) => input.log(`replay: ${line}`),
  });
  // Every run of the judged checkout is judged: the reruns load the runtime guard too (§3.2.7).
  const findings = reruns.flatMap((rerun) => guardFindings(baseline, rerun));
  const ids = flaky.ids;
  const keep = (list: string[]) => list.filter((id) => !ids.has(id));
  const comparison: TestComparison = {
    failToPass: keep(input.comparison.failToPass),
    passToFail: keep(input.comparison.passToFail),
    stillFailing: keep(input.comparison.stillFailing),
    newlySkipped: input.comparison.newlySkipped,
    removed: input.comparison.removed,
  };
  const seen = new Set([...baseline.tests, ...gate.report.tests].map((t) => t.id));
  const discounted = [...ids].filter((id) => seen.has(id)).sort();
  const failedBefore = namedFailures(baseline) ?? [];
  if (failedBefore.length > 0 && failedBefore.every((t) => ids.has(t.id)))
    findings.push({
      kind: 'flaky_only',
      message: `every test that failed at the baseline is flaky (${failedBefore.map((t) => `\`${t.id}\``).join(', ')}): a flaky test's outcome is no fix`,
    });
  return { comparison, discounted, onlyFlakyFailed: onlyFlakyFailed(gate, ids), findings };
}
