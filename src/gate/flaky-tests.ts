// The flaky tests a run knows (docs/design.md §3.2.8), and the gate as the loop and the engines see
// it: a known flaky test's failure is no target and counts for nothing, and a test that passed at the
// baseline and fails now is run again before it counts. The judge reads the same set.
import type { FlakyTest } from '../core/flaky-test.ts';
import type { GateResult } from '../core/gate-result.ts';
import { viewOf, type TestCaseResult, type TestReport } from '../core/test-report.ts';
import { flakyOf, rerunFailing } from './rerun-tests.ts';
import { packageScripts } from '../runners/package-scripts.ts';

/** The run's flaky tests, found at the baseline and later; the loop, the engines and the judge share it. */
export class FlakyTests {
  readonly #tests = new Map<string, FlakyTest>();
  readonly #ids = new Set<string>();
  /** How many more times a failing test runs (`loop.flakyReruns`); 0: flakiness is not measured. */
  readonly reruns: number;

  constructor(reruns: number) {
    this.reruns = reruns;
  }

  /** The ids, live: the set grows as the run finds more. */
  get ids(): ReadonlySet<string> {
    return this.#ids;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** Kept as first found: a later rerun of a known flaky test adds nothing. */
  add(test: FlakyTest): void {
    if (this.#ids.has(test.id)) return;
    this.#tests.set(test.id, test);
    this.#ids.add(test.id);
  }

  list(): FlakyTest[] {
    return [...this.#tests.values()];
  }
}

/** The failing tests a gate names, when it names every failure it counted (else null: not all are known). */
export function namedFailures(report: TestReport): TestCaseResult[] | null {
  if (!report.parsed) return null;
  const view = viewOf(report);
  if (view !== 'inside' && view !== 'output') return null;
  const failing = report.tests.filter((t) => t.status === 'failed');
  return failing.length >= report.failed ? failing : null;
}

/** The gate failed, and only on flaky tests: every failure named, each one flaky. */
export function onlyFlakyFailed(gate: GateResult, flaky: ReadonlySet<string>): boolean {
  if (gate.passed || gate.reason !== 'NON_ZERO_EXIT' || flaky.size === 0) return false;
  if (gate.checks?.some((c) => !c.passed)) return false;
  const failing = namedFailures(gate.report);
  return failing !== null && failing.length > 0 && failing.every((t) => flaky.has(t.id));
}

/**
 * The gate as the loop and the engines see it: the flaky tests' failures counted as skipped, not
 * failed (no engine's target, no progress, no regression; the suite keeps its size, so an engine
 * still tells one failing test of two from a suite that fails whole), and passed when they were all
 * it failed on. Never the judge's view: the replay is judged on the gate as it ran (src/verify/).
 */
export function withoutFlaky(gate: GateResult, flaky: ReadonlySet<string>): GateResult {
  if (gate.passed || flaky.size === 0 || !gate.report.parsed) return gate;
  const isFlakyFailure = (t: TestCaseResult) => t.status === 'failed' && flaky.has(t.id);
  const dropped = gate.report.tests.filter(isFlakyFailure).length;
  if (dropped === 0) return gate;
  const report: TestReport = {
    ...gate.report,
    tests: gate.report.tests.map((t) =>
      isFlakyFailure(t) ? { id: t.id, name: t.name, ...(t.file ? { file: t.file } : {}), status: 'skipped' } : t,
    ),
    failed: Math.max(0, gate.report.failed - dropped),
    skipped: gate.report.skipped + dropped,
  };
  if (!onlyFlakyFailed(gate, flaky)) return { ...gate, report };
  const { reason: _reason, exitCode: _exitCode, ...rest } = gate;
  return { ...rest, report, passed: true };
}

export interface NewFailures {
  gate: GateResult;
  /** The baseline the gate is compared with: a test that passed there and fails now is run again. */
  baseline: TestReport;
  flaky: FlakyTests;
  seen: FlakyTest['seen'];
  /** Where the gate ran. */
  cwd: string;
  testCommand: string;
  run: (command: string) => Promise<GateResult>;
  deadline?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/**
 * The tests that passed at the baseline and fail in `gate`, not yet known flaky, run again on the
 * same code (`flaky.reruns` times): those seen passing join the flaky tests. Returns the reruns'
 * gates (the judge judges them as it judges any run of its checkout).
 */
export async function confirmNewFailures(input: NewFailures): Promise<GateResult[]> {
  const { gate, flaky } = input;
  if (flaky.reruns === 0 || gate.passed) return [];
  const passedBefore = new Set(input.baseline.tests.filter((t) => t.status === 'passed').map((t) => t.id));
  const fresh = (namedFailures(gate.report) ?? []).filter((t) => passedBefore.has(t.id) && !flaky.has(t.id));
  if (fresh.length === 0) return [];
  const rerun = await rerunFailing({
    run: input.run,
    testCommand: input.testCommand,
    packageScripts: await packageScripts(input.cwd),
    failing: fresh,
    reruns: flaky.reruns,
    ...(input.deadline !== undefined ? { deadline: input.deadline } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.log ? { log: input.log } : {}),
  });
  if (rerun.command === null) {
    input.log?.(`not run again: ${rerun.why}`);
    return [];
  }
  for (const test of flakyOf(rerun.counts)) flaky.add({ ...test, seen: input.seen });
  return rerun.gates;
}
