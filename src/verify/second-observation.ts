// Two observations (docs/design.md §3.2.4): each test the patch turned from failing to passing is also
// run on its own, through the runner's own selection, in the replay's checkout; it must pass there
// too. A suite green only as a whole (a test that passes because another one ran first, a runner
// that reports what it did not run) is caught here. Where the runner cannot select one test (an
// unknown runner, a compound command), the report says the second observation was not possible.
import type { Finding } from '../core/findings.ts';
import type { SecondObservation } from '../core/run-result.ts';
import type { TestCaseResult, TestReport } from '../core/test-report.ts';
import { focusedTestCommand } from '../runners/focused-test-command.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { guardFindings } from './guard-findings.ts';
import { packageScripts } from '../runners/package-scripts.ts';

/** At most this many fixed tests are run alone (each is a run of the runner). */
const MAX_ALONE = 5;

/**
 * The test as the runner names it: from the final run's view when it lists passing tests (from inside
 * the test processes it lists every test, under the id the runner's parser gives), else from the
 * baseline, where it failed and so was listed (jest's output lists a passing test only when it runs
 * one file); its id alone is the last resort (a jest id holds the file, which `-t` never matches).
 */
function described(id: string, final: TestReport, baseline: TestReport): TestCaseResult {
  const known = final.tests.find((t) => t.id === id) ?? baseline.tests.find((t) => t.id === id);
  if (known) return known;
  return { id, name: id.split(/ > | › /).at(-1) ?? id, status: 'passed' };
}

export async function observeAlone(
  suite: SuiteRunner,
  cwd: string,
  reports: { final: TestReport; baseline: TestReport },
  failToPass: string[],
  log: (line: string) => void,
): Promise<{ observation: SecondObservation; findings: Finding[] }> {
  const scripts = await packageScripts(cwd);
  const fixed = failToPass.slice(0, MAX_ALONE).map((id) => described(id, reports.final, reports.baseline));
  if (fixed.length === 0) return { observation: { ran: 0, command: null }, findings: [] };
  const findings: Finding[] = [];
  let example: string | null = null;
  for (const test of fixed) {
    const command = focusedTestCommand(suite.testCommand, [test], scripts);
    if (!command) return { observation: { ran: 0, command: null }, findings: [] };
    example ??= command;
    log(`replay: alone: ${command}`);
    const gate = await suite.gateWith(cwd, command);
    if (!passedAlone(gate.passed, gate.report, test)) {
      findings.push({
        kind: 'second_observation_failed',
        message: `\`${test.id}\` passes in the whole suite but not when run alone (\`${command}\`)`,
      });
    }
    // The run alone is judged too: the runtime guard's events and records (docs/design.md §3.2.7).
    findings.push(...guardFindings(reports.baseline, gate));
  }
  return { observation: { ran: fixed.length, command: example }, findings };
}

/**
 * The test passed on its own: the run passed and, where its view names tests (from inside its
 * processes, or its output), names the test passed, or (an output such as `pytest -q`'s lists only
 * failures) ran tests of which none failed.
 */
function passedAlone(passed: boolean, report: TestReport, test: TestCaseResult): boolean {
  if (!passed) return false;
  if (!report.parsed) return true;
  const seen = report.tests.find((t) => t.id === test.id || t.name === test.name);
  return seen ? seen.status === 'passed' : report.failed === 0 && report.passed > 0;
}
