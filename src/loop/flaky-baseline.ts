// Flakiness at the baseline (docs/design.md §3.2.8): the baseline's failing tests run again on the
// pristine code, together, `loop.flakyReruns` more times; a test that passes in any of those runs is
// flaky, no engine's target and no regression. A check run (`checks`) measures nothing: its gate is
// the checks, whose diagnostics do not come and go.
import type { Flakiness } from '../core/flaky-test.ts';
import { flakyCountWords } from '../core/flaky-test.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { RunResult } from '../core/run-result.ts';
import { testCounts } from '../core/gate-summary.ts';
import { FlakyTests, namedFailures } from '../gate/flaky-tests.ts';
import { flakyOf, rerunFailing } from '../gate/rerun-tests.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import type { Workspace } from '../workspace/workspace.ts';
import type { RunContext } from './run-context.ts';
import { packageScripts } from '../runners/package-scripts.ts';

export interface BaselineFlakiness {
  /** The run's flaky tests, shared by the loop, the engines and the judge. */
  flaky: FlakyTests;
  /** What the baseline's reruns found; null when none were due (a green baseline, the check off, a check run). */
  measured: Flakiness | null;
}

export interface FlakyBaselineInput {
  baseline: GateResult;
  workspace: Workspace;
  suite: SuiteRunner;
  reruns: number;
  /** A check run's gate is its checks: nothing is measured. */
  checkRun: boolean;
  deadline: number;
}

export async function measureBaselineFlakiness(ctx: RunContext, input: FlakyBaselineInput): Promise<BaselineFlakiness> {
  const { baseline, workspace, suite } = input;
  const reruns = input.checkRun ? 0 : input.reruns;
  const flaky = new FlakyTests(reruns);
  if (reruns === 0 || baseline.passed) return { flaky, measured: null };
  const failing = namedFailures(baseline.report);
  if (!failing || failing.length === 0) {
    const why = "the baseline's failures are not named per test";
    ctx.progress({ phase: 'baseline', message: `baseline: flakiness not measured: ${why}` });
    return { flaky, measured: { reruns, command: null, checked: 0, tests: [], durationMs: 0, notMeasured: why } };
  }
  const lines: string[] = [];
  const rerun = await rerunFailing({
    run: (command) => suite.gateWith(workspace.root, command, Math.max(1000, input.deadline - Date.now())),
    testCommand: suite.testCommand,
    packageScripts: await packageScripts(workspace.root),
    failing,
    reruns,
    deadline: input.deadline,
    signal: ctx.signal,
    log: (line) => {
      lines.push(line);
      ctx.progress({ phase: 'baseline', message: `baseline: ${line}` });
    },
  });
  if (rerun.command === null) {
    ctx.progress({ phase: 'baseline', message: `baseline: flakiness not measured: ${rerun.why}` });
    return {
      flaky,
      measured: { reruns, command: null, checked: failing.length, tests: [], durationMs: 0, notMeasured: rerun.why },
    };
  }
  // What the reruns wrote is the tests' own, as the baseline's is: never part of a patch.
  await workspace.markEnvironment();
  await ctx.artifacts.writeLog('flaky.log', rerunLog(lines, rerun.gates));
  for (const test of flakyOf(rerun.counts)) {
    flaky.add({ ...test, seen: 'baseline' });
    ctx.progress({ phase: 'baseline', message: `baseline: flaky, not a target: ${test.id} (${flakyCountWords(test)})` });
  }
  return {
    flaky,
    measured: { reruns, command: rerun.command, checked: failing.length, tests: [], durationMs: rerun.durationMs },
  };
}

function rerunLog(lines: string[], gates: GateResult[]): string {
  return gates.map((gate, i) => `==== ${lines[i] ?? `run again ${i + 1}`} ====\n${gate.output}`).join('\n');
}

/** A baseline whose only failures are flaky: nothing to repair, and no patch (docs/design.md §3.2.8). */
export function flakyResult(base: RunResult, baseline: GateResult): RunResult {
  return { ...base, status: 'flaky', final: testCounts(baseline.report) };
}

/** The result with what the run found of flakiness, at the baseline and after: absent when it measured and found nothing of note. */
export function withFlakiness(result: RunResult, found: BaselineFlakiness): RunResult {
  const tests = found.flaky.list();
  if (!found.measured && tests.length === 0) return result;
  const measured = found.measured ?? { reruns: found.flaky.reruns, command: null, checked: 0, tests: [], durationMs: 0 };
  return { ...result, flakiness: { ...measured, tests } };
}
