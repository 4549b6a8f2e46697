// `run_tests`: the model's own test runs, in the sandbox like every other run of the repository's
// code. The failing tests first (or the named ones) for quick feedback, then the whole suite once
// they pass. These runs inform the model only: the loop's gate alone decides what is green.
import type { RepoConfig } from '../../core/repo-config.ts';
import type { CheckGateRunner } from '../../gate/check-gate-runner.ts';
import type { GateResult } from '../../core/gate-result.ts';
import { runGate } from '../../gate/run-gate.ts';
import type { TestCaseResult } from '../../core/test-report.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import type { Workspace } from '../../workspace/workspace.ts';
import { focusedTestCommand } from '../../runners/focused-test-command.ts';
import type { ToolAnswer } from './workspace-tools.ts';
import { scriptsOfPackageJson } from '../../runners/package-scripts.ts';

export interface TestToolContext {
  workspace: Workspace;
  sandbox: Sandbox;
  config: RepoConfig;
  /** The gate the attempt started from: its failing tests are the default target. */
  lastGate: GateResult;
  /** A check run's gate (AttemptContext.checks): the checks and the tests, run together. */
  checks?: CheckGateRunner;
  signal: AbortSignal;
  /** Milliseconds this run of the tests may take at most (the budgets' remainder). */
  timeLimitMs: () => number;
}

const MAX_FAILURES_SHOWN = 12;
const MAX_MESSAGE_CHARS = 1500;
const OUTPUT_TAIL_CHARS = 4000;

export async function runTestsTool(ctx: TestToolContext, input: Record<string, unknown>): Promise<ToolAnswer> {
  const command = ctx.config.test.command ?? '';
  // In a check run the checks are what fails: they run, then the tests, as the loop's gate runs them.
  if (ctx.checks) {
    const timeoutMs = Math.max(1000, Math.min(ctx.config.test.timeout * 1000, ctx.timeLimitMs()));
    const gate = await ctx.checks.run(ctx.workspace.root, { timeoutMs, signal: ctx.signal, alwaysTests: true });
    return { content: describe([...ctx.checks.commands, command].join(' ; '), gate, []), isError: false };
  }
  const named = Array.isArray(input.tests) ? input.tests.filter((t): t is string => typeof t === 'string' && t.length > 0) : [];
  const targets =
    named.length > 0
      ? named.map((name) => knownTest(ctx.lastGate, name))
      : ctx.lastGate.report.tests.filter((t) => t.status === 'failed');
  const focused =
    targets.length > 0
      ? focusedTestCommand(command, targets, scriptsOfPackageJson(await ctx.workspace.readFile('package.json').catch(() => null)))
      : null;
  const parts: string[] = [];
  if (focused) {
    const gate = await run(ctx, focused);
    parts.push(describe(focused, gate, named));
    // Named tests were asked for alone; otherwise a green focus is confirmed on the whole suite.
    if (!gate.passed || named.length > 0) return { content: parts.join('\n\n'), isError: false };
  }
  const full = await run(ctx, command);
  parts.push(describe(command, full, named));
  return { content: parts.join('\n\n'), isError: false };
}

function knownTest(gate: GateResult, name: string): TestCaseResult {
  return gate.report.tests.find((t) => t.id === name || t.name === name) ?? { id: name, name, status: 'failed' };
}

function run(ctx: TestToolContext, command: string): Promise<GateResult> {
  return runGate(ctx.sandbox, {
    command,
    cwd: ctx.workspace.root,
    timeoutMs: Math.max(1000, Math.min(ctx.config.test.timeout * 1000, ctx.timeLimitMs())),
    env: ctx.config.env,
    signal: ctx.signal,
    ...(ctx.config.test.report ? { reportFile: ctx.config.test.report } : {}),
  });
}

function describe(command: string, gate: GateResult, named: string[]): string {
  const report = gate.report;
  const lines = [`$ ${command}`];
  const status = gate.passed
    ? 'passed'
    : gate.reason === 'TIMEOUT'
      ? 'TIMED OUT'
      : `failed (${gate.reason}${gate.exitCode !== undefined ? ` ${gate.exitCode}` : ''})`;
  lines.push(report.parsed ? `${status}: ${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped` : status);
  if (named.length > 0 && report.parsed) {
    for (const name of named) {
      const test = report.tests.find((t) => t.id === name || t.name === name || t.id.endsWith(name));
      lines.push(`- ${name}: ${test ? test.status : 'not run (check the name)'}`);
    }
  }
  const failing = report.tests.filter((t) => t.status === 'failed');
  for (const test of failing.slice(0, MAX_FAILURES_SHOWN)) {
    const detail = [test.message, test.stack].filter(Boolean).join('\n').slice(0, MAX_MESSAGE_CHARS);
    lines.push(`FAILED ${test.id}${detail ? `\n${indent(detail)}` : ''}`);
  }
  if (failing.length > MAX_FAILURES_SHOWN) lines.push(`… ${failing.length - MAX_FAILURES_SHOWN} more failing`);
  if (!gate.passed && (!report.parsed || failing.length === 0))
    lines.push(`output (end):\n${gate.output.slice(-OUTPUT_TAIL_CHARS)}`);
  return lines.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}
