// Two observations (docs/design.md §3.2.4): each test the patch turned from failing to passing is also
// run on its own, through the runner's own selection, in the replay's checkout; it must pass there
// too. A suite green only as a whole (a test that passes because another one ran first, a runner
// that reports what it did not run) is caught here. Where the runner cannot select one test (an
// unknown runner, a compound command), the report says the second observation was not possible.
// Where every fixed test passed alone, they run once more from copies of their test files
// (copied-tests.ts), and once more with their expected values changed (changed-expectations.ts),
// where each must fail: two looks that do not depend on the runtime guard.
import type { Finding } from '../core/findings.ts';
import type { SecondObservation } from '../core/run-result.ts';
import type { TestCaseResult, TestReport } from '../core/test-report.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { guardFindings } from './guard-findings.ts';
import { packageScripts } from '../runners/package-scripts.ts';
import { passedAlone } from './passed-alone.ts';
import { observeFromCopies } from './copied-tests.ts';
import { observeChangedExpectations } from './changed-expectations.ts';
import { runAlone } from './run-alone.ts';

export interface ScratchCopies {
  copies: string | null;
  expectations: string | null;
  /** The judge's test files: the baseline's and the protected paths (harness-tampering.ts). */
  isTestFile: (path: string) => boolean;
}

/** At most this many fixed tests are run alone (each is a run of the runner). */
const MAX_ALONE = 5;

/**
 * The test as the runner names it: from the final run's view when it lists passing tests (from inside
 * the test processes it lists every test, under the id the runner's parser gives), else from the
 * baseline, where it failed and so was listed (jest's output lists a passing test only when it runs
 * one file); its id alone is the last resort (a jest id holds the file, which `-t` never matches).
 */
function described(id: string, final: TestReport, baseline: TestReport): TestCaseResult {
  const before = baseline.tests.find((t) => t.id === id);
  const known = final.tests.find((t) => t.id === id) ?? before;
  // Its file as the baseline named it where the final view does not (node's runner names a failing test's only).
  if (known) return known.file || !before?.file ? known : { ...known, file: before.file };
  return { id, name: id.split(/ > | › /).at(-1) ?? id, status: 'passed' };
}

export async function observeAlone(
  suite: SuiteRunner,
  cwd: string,
  reports: { final: TestReport; baseline: TestReport },
  failToPass: string[],
  log: (line: string) => void,
  /**
   * Copies of the checkout made before any test ran there, one for the copied test files
   * (copied-tests.ts), one for the changed expectations (changed-expectations.ts), and the baseline's
   * test files; absent: neither look is made.
   */
  scratch?: ScratchCopies,
): Promise<{ observation: SecondObservation; findings: Finding[] }> {
  const scripts = await packageScripts(cwd);
  const fixed = failToPass.slice(0, MAX_ALONE).map((id) => described(id, reports.final, reports.baseline));
  if (fixed.length === 0) return { observation: { ran: 0, command: null }, findings: [] };
  const findings: Finding[] = [];
  let example: string | null = null;
  for (const test of fixed) {
    const alone = await runAlone(suite, cwd, test, scripts, log);
    if (!alone) return { observation: { ran: 0, command: null }, findings: [] };
    const { command, gate } = alone;
    example ??= command;
    if (!passedAlone(gate, test)) {
      findings.push({
        kind: 'second_observation_failed',
        message: `\`${test.id}\` passes in the whole suite but not when run alone (\`${command}\`)`,
      });
    }
    // The run alone is judged too: the runtime guard's events and records (docs/design.md §3.2.7).
    findings.push(...guardFindings(reports.baseline, gate));
  }
  if (findings.length > 0 || !scratch) return { observation: { ran: fixed.length, command: example }, findings };
  const copies = await observeFromCopies(suite, scratch.copies, fixed, scripts, log, reports.baseline);
  const observation = { ran: fixed.length, command: example, copied: copies.observation };
  if (copies.findings.length > 0) return { observation, findings: copies.findings };
  const context = { scripts, isTestFile: scratch.isTestFile, baseline: reports.baseline, log };
  const changed = await observeChangedExpectations(suite, scratch.expectations, fixed, context);
  return { observation: { ...observation, expectations: changed.observation }, findings: changed.findings };
}
