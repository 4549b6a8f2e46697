// One fixed test run alone, through the runner's own selection (docs/design.md §3.2.4). Some runners
// cannot select a subtest by its own name: node's runner skips a `test()` whose name does not match,
// and with it every `t.test()` inside, so a pattern of the subtest's name alone runs no test at all
// (Node 20 and 24 alike). Such a run said nothing about the test; it is run again with its parents'
// names in the pattern, which runs the parent, its subtests with it: as alone as that runner allows.
import type { GateResult } from '../core/gate-result.ts';
import type { TestCaseResult, TestReport } from '../core/test-report.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import { focusedTestCommand } from '../runners/focused-test-command.ts';

export interface AloneRun {
  command: string;
  gate: GateResult;
  /** The parents the command named too, when its own name selected nothing. */
  withParents?: string[];
}

/** The run of `test` alone, or null when the runner cannot select it at all (no command). */
export async function runAlone(
  suite: SuiteRunner,
  cwd: string,
  test: TestCaseResult,
  scripts: Record<string, string>,
  log: (line: string) => void,
): Promise<AloneRun | null> {
  const command = focusedTestCommand(suite.testCommand, [test], scripts);
  if (!command) return null;
  log(`replay: alone: ${command}`);
  const gate = await suite.gateWith(cwd, command);
  const parents = test.id.split(/ > | › /).slice(0, -1);
  if (!ranNothing(gate.report, test) || parents.length === 0) return { command, gate };
  const named = parents.map((name) => ({ id: name, name, ...(test.file ? { file: test.file } : {}), status: 'passed' as const }));
  const wider = focusedTestCommand(suite.testCommand, [test, ...named], scripts);
  if (!wider || wider === command) return { command, gate };
  log(`replay: alone, with its parents (its own name selected no test): ${wider}`);
  return { command: wider, gate: await suite.gateWith(cwd, wider), withParents: parents };
}

/** A run that neither passed nor failed any test, and did not name this one: its selection matched nothing. */
function ranNothing(report: TestReport, test: TestCaseResult): boolean {
  if (!report.parsed || report.passed > 0 || report.failed > 0) return false;
  return !report.tests.some((t) => t.id === test.id || t.name === test.name);
}
