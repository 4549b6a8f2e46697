// A baseline that passed, when the run would end with nothing to fix (docs/design.md §3.2.8): the
// request says something fails (a failing check, a test the user saw fail), and one passing run does
// not say it never fails. The whole suite runs again on the pristine code, `loop.flakyReruns` more
// times; a test that passed at the baseline and fails in any of those runs is flaky, and the run ends
// `flaky` naming it, instead of `nothing_to_fix`. A run that writes a test first (the red phase)
// measures nothing here: its request names no failure.
import type { FlakyTest } from '../core/flaky-test.ts';
import { flakyCountWords } from '../core/flaky-test.ts';
import type { GateResult } from '../core/gate-result.ts';
import { namedFailures } from '../gate/flaky-tests.ts';
import type { PreparedRun } from './prepare-run.ts';
import type { RunContext } from './run-context.ts';

/** The flaky tests the green baseline's reruns found (none when nothing was due or nothing failed). */
export async function measureGreenBaseline(ctx: RunContext, run: PreparedRun): Promise<FlakyTest[]> {
  const { flaky } = run.flakiness;
  if (flaky.reruns === 0 || !run.baseline.passed || run.checks) return [];
  const root = run.workspace.root;
  const started = Date.now();
  const gates: GateResult[] = [];
  for (let n = 1; n <= flaky.reruns; n++) {
    if (ctx.signal.aborted || Date.now() >= run.deadline) break;
    ctx.progress({
      phase: 'baseline',
      message: `baseline: green; the whole suite again, to see whether a test fails only sometimes (${n}/${flaky.reruns}): ${run.suite.testCommand}`,
    });
    gates.push(await run.suite.gate(root, Math.max(1000, run.deadline - Date.now())));
  }
  // What the reruns wrote is the tests' own, as the baseline's is: never part of a patch.
  await run.workspace.markEnvironment();
  await ctx.artifacts.writeLog('flaky.log', gates.map((g, i) => `==== the suite again (${i + 1}) ====\n${g.output}`).join('\n'));
  const found = failedSometimes(run.baseline, gates);
  for (const test of found) {
    flaky.add(test);
    ctx.progress({ phase: 'baseline', message: `baseline: flaky, not a target: ${test.id} (${flakyCountWords(test)})` });
  }
  const failedRuns = gates.filter((g) => !g.passed).length;
  const unnamed = failedRuns > 0 && found.length === 0;
  run.flakiness.measured = {
    reruns: flaky.reruns,
    command: run.suite.testCommand,
    checked: 0,
    tests: [],
    durationMs: Date.now() - started,
    suiteRuns: { runs: gates.length + 1, failed: failedRuns },
    ...(unnamed
      ? { notMeasured: `the suite failed in ${failedRuns} of ${gates.length + 1} runs without naming a failing test` }
      : {}),
  };
  return found;
}

/** The tests that passed at the baseline and failed in some rerun, with their counts over every run. */
function failedSometimes(baseline: GateResult, gates: GateResult[]): FlakyTest[] {
  const passedBefore = new Set(baseline.report.tests.filter((t) => t.status === 'passed').map((t) => t.id));
  const failures = new Map<string, number>();
  for (const gate of gates) {
    for (const test of namedFailures(gate.report) ?? []) {
      if (passedBefore.has(test.id)) failures.set(test.id, (failures.get(test.id) ?? 0) + 1);
    }
  }
  return [...failures]
    .map(([id, failed]) => ({ id, runs: gates.length + 1, failed, seen: 'baseline' as const }))
    .sort((a, b) => a.id.localeCompare(b.id));
}
