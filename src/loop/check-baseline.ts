// The checks of a check run at the baseline (docs/design.md §1.6): each run once on the pristine code,
// after the setup and the tests, its diagnostics kept for the report. A check that cannot run (its
// program not found, its time spent) is a broken environment, an error before any engine, as for the
// tests. What passes at the baseline leaves nothing to fix.
import { checkToolsOf } from '../checks/registry.ts';
import { checkSummary, diagnosticText, type CheckRun } from '../core/check-result.ts';
import type { GateResult } from '../core/gate-result.ts';
import { runnerOf } from '../runners/registry.ts';
import type { RunResult } from '../core/run-result.ts';
import type { SuiteRunner } from '../gate/setup-then-gate.ts';
import type { Workspace } from '../workspace/workspace.ts';
import type { RunContext } from './run-context.ts';
import { packageScripts } from '../runners/package-scripts.ts';

/** Where the baseline's checks run: the workspace, the suite that knows them, the run's deadline and the tests' time limit. */
export interface CheckBaselineInput {
  workspace: Workspace;
  suite: SuiteRunner;
  deadline: number;
  timeoutSeconds: number;
}

const NOT_FOUND = /(^|\n)(\/bin\/sh: (line )?\d+: |sh: (line )?\d+: |sh: )?[^\s:]+: (command )?not found/;

/** Why a check that failed at the baseline says nothing about the code, or null. */
function brokenCheck(run: CheckRun, timeoutSeconds: number): { code: string; message: string } | null {
  if (run.passed || run.diagnostics.length > 0) return null;
  if (run.timedOut)
    return { code: 'CHECK_TIMEOUT', message: `the check \`${run.command}\` timed out after ${timeoutSeconds} s at the baseline` };
  if (run.exitCode === 127 || NOT_FOUND.test(run.output))
    return {
      code: 'CHECK_NOT_FOUND',
      message: `the check \`${run.command}\` could not run: its program was not found (${run.output.trim().split('\n').at(-1) ?? ''}). Install it with the setup command (\`setup.command\`, --setup), or make it visible to the sandbox`,
    };
  return null;
}

/** Lines for the baseline's log: each check, its ending and its diagnostics. */
function checksLog(runs: readonly CheckRun[]): string {
  return runs
    .map((run) => {
      const ending = run.passed ? 'passed' : `failed (${run.timedOut ? 'timed out' : `exit ${run.exitCode ?? 'killed'}`})`;
      const read = run.diagnostics.map((d) => `  ${diagnosticText(d)}`).join('\n');
      return `==== check: ${run.command}: ${ending}, ${run.diagnostics.length} diagnostic(s) ====\n${read ? `${read}\n` : ''}${run.output}`;
    })
    .join('\n');
}

/**
 * The checks on the baseline's checkout; null when the run has none. A broken check ends the run
 * here, as an error (`RunResult`).
 */
export async function baselineChecks(ctx: RunContext, input: CheckBaselineInput): Promise<CheckRun[] | RunResult | null> {
  const commands = input.suite.checkCommands;
  if (commands.length === 0) return null;
  ctx.progress({ phase: 'baseline', message: `baseline: checks ${commands.map((c) => `\`${c}\``).join(', ')}` });
  const runs = await input.suite.checks(input.workspace.root, Math.max(1000, input.deadline - Date.now()));
  await input.workspace.markEnvironment();
  await ctx.artifacts.writeLog('checks-baseline.log', checksLog(runs));
  ctx.base.checks = { commands: [...commands], baseline: runs.map(checkSummary) };
  const diagnostics = runs.reduce((sum, r) => sum + (r.passed ? 0 : Math.max(1, r.diagnostics.length)), 0);
  const failing = runs.filter((r) => !r.passed).length;
  ctx.progress({
    phase: 'baseline',
    failing: diagnostics,
    message:
      failing === 0
        ? 'baseline: every check passes'
        : `baseline: ${failing} of ${runs.length} check(s) failing, ${diagnostics} diagnostic(s)`,
  });
  for (const check of runs) {
    const broken = brokenCheck(check, input.timeoutSeconds);
    if (broken) return { ...ctx.base, status: 'error', error: broken };
  }
  return runs;
}

/**
 * A test command that runs a check tool and no test runner, and fails unread per test (`--test "npm run
 * lint"`), is no test suite: an engine would be handed no failing test. The run says so and how to ask
 * for a check run instead (`--check`), before any engine.
 */
export async function testCommandIsCheck(
  ctx: RunContext,
  baseline: GateResult,
  testCommand: string,
  root: string,
): Promise<RunResult | null> {
  if (baseline.passed || baseline.report.parsed) return null;
  const scripts = await packageScripts(root);
  if (runnerOf(testCommand, scripts)) return null;
  const tools = checkToolsOf(testCommand, scripts);
  if (tools.length === 0) return null;
  const names = tools.map((t) => t.id).join(', ');
  return {
    ...ctx.base,
    status: 'error',
    error: {
      code: 'TEST_COMMAND_IS_A_CHECK',
      message: `the test command \`${testCommand}\` runs ${names}, a check, not a test suite: pass it as a check (--check "${testCommand}", or \`checks:\` in fixloop.yml) and the tests as the test command, which then guard against regressions`,
    },
  };
}
