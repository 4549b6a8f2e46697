// Failing tests run again on the same code, to tell a flaky test from a real failure (docs/design.md
// §3.2.8): the failing tests together, through the runner's own selection (one process per rerun,
// not one per test), `reruns` more times. A test seen passing in any of those runs is flaky.
import type { GateResult } from '../core/gate-result.ts';
import type { TestCaseResult, TestReport } from '../core/test-report.ts';
import { focusChoices } from '../runners/focused-test-command.ts';

/** More failing tests than this are not run again: one name pattern for hundreds of tests is a suite run each time. */
export const MAX_RERUN_TESTS = 100;

export interface RerunRequest {
  /** Runs a command as the gate does, in the checkout where the tests failed. */
  run: (command: string) => Promise<GateResult>;
  testCommand: string;
  /** The checkout's package.json scripts, through which an `npm test` reaches its runner. */
  packageScripts: Record<string, string>;
  /** The tests that failed, as the runner named them. */
  failing: TestCaseResult[];
  reruns: number;
  /** Epoch milliseconds past which no rerun starts. */
  deadline?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/** A test's runs on the same code, the failing one that brought it here included, and how many it did not pass. */
export interface RunCounts {
  runs: number;
  failed: number;
}

export type RerunResult =
  { command: string; counts: Map<string, RunCounts>; gates: GateResult[]; durationMs: number } | { command: null; why: string };

export async function rerunFailing(request: RerunRequest): Promise<RerunResult> {
  const { failing } = request;
  if (failing.length === 0) return { command: null, why: 'no failing test is named' };
  if (failing.length > MAX_RERUN_TESTS)
    return { command: null, why: `${failing.length} failing tests are more than ${MAX_RERUN_TESTS} to run again` };
  const choice = focusChoices(request.testCommand, failing, request.packageScripts)[0];
  if (!choice)
    return {
      command: null,
      why: `the test command \`${request.testCommand}\` cannot run chosen tests alone (its runner, or a compound command)`,
    };
  const started = Date.now();
  const counts = new Map(failing.map((t) => [t.id, { runs: 1, failed: 1 }]));
  const gates: GateResult[] = [];
  for (let n = 1; n <= request.reruns; n++) {
    if (request.signal?.aborted || (request.deadline !== undefined && Date.now() >= request.deadline)) break;
    request.log?.(`run again (${n}/${request.reruns}): ${choice.command}`);
    const gate = await request.run(choice.command);
    gates.push(gate);
    for (const test of failing) {
      const count = counts.get(test.id);
      if (!count) continue;
      count.runs++;
      if (outcomeIn(gate, test) !== 'passed') count.failed++;
    }
  }
  return { command: choice.command, counts, gates, durationMs: Date.now() - started };
}

/** The tests of `counts` seen passing at least once: flaky. */
export function flakyOf(counts: ReadonlyMap<string, RunCounts>): Array<{ id: string } & RunCounts> {
  return [...counts]
    .filter(([, count]) => count.failed < count.runs)
    .map(([id, count]) => ({ id, ...count }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The test's outcome in a rerun: as its view names it (by id, or by its name where only one test has
 * it), or passed when the run passed with tests and no failure (an output that lists only failures,
 * such as `pytest -q`'s); anything else is not a pass.
 */
function outcomeIn(gate: GateResult, test: TestCaseResult): 'passed' | 'not passed' {
  const report: TestReport = gate.report;
  const seen = report.tests.find((t) => t.id === test.id) ?? onlyNamed(report, test.name);
  if (seen) return seen.status === 'passed' ? 'passed' : 'not passed';
  return gate.passed && report.parsed && report.failed === 0 && report.passed > 0 ? 'passed' : 'not passed';
}

function onlyNamed(report: TestReport, name: string) {
  const named = report.tests.filter((t) => t.name === name);
  return named.length === 1 ? named[0] : undefined;
}
