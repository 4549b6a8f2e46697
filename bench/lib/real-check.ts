// Whether a real bug is sound, as bench:real:check and the builder (bench/build-real-bug.ts) both
// judge it: on the snapshot (the fix's parent plus the fix's tests) the recorded tests fail and
// nothing else does; with the upstream fix applied every test passes.
import { rmSync } from 'node:fs';
import { parseTestOutput } from '../../src/gate/parse-test-output.ts';
import { materializeReal, setUp, type RealBug } from './real-corpus.ts';
import { shell } from './workdir.ts';

const TEST_TIMEOUT_MS = 300_000;

export interface Observed {
  code: number | null;
  failed: string[];
  passed: string[];
  parsed: boolean;
  total: number;
  tail: string;
  /** How long the test command ran, in seconds. */
  seconds: number;
}

/** Runs the bug's tests on its snapshot (with the upstream fix when `fixed`); a string says why it could not. */
export async function observe(bug: RealBug, fixed: boolean): Promise<Observed | string> {
  const dir = materializeReal(bug, 'check', fixed);
  try {
    const setupProblem = await setUp(bug, dir, (command, cwd) => shell(command, cwd, TEST_TIMEOUT_MS));
    if (setupProblem) return setupProblem;
    const started = performance.now();
    const run = await shell(bug.test, dir, TEST_TIMEOUT_MS);
    const report = parseTestOutput(`${run.stdout}\n${run.stderr}`);
    const ids = (status: string) => report.tests.filter((t) => t.status === status).map((t) => t.id);
    return {
      code: run.code,
      failed: ids('failed'),
      passed: ids('passed'),
      parsed: report.parsed,
      total: report.total,
      tail: `${run.stdout.slice(-2000)}\n${run.stderr.slice(-1000)}`,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What is wrong with a bug, given its two runs; none when it is sound. `expected` is the list of
 * tests that must fail: the recorded one, or (when recording) what the snapshot's run saw fail.
 */
export function compare(buggy: Observed, fixed: Observed, expected: string[]): string[] {
  const errors: string[] = [];
  if (buggy.code === 0) errors.push('the tests pass on the snapshot (exit 0)');
  if (!buggy.parsed) errors.push(`no per-test results could be parsed from the snapshot's run:\n${buggy.tail}`);
  if (fixed.code !== 0 || fixed.failed.length > 0)
    errors.push(
      `with the upstream fix the tests still fail (exit ${fixed.code}; ${fixed.failed.join(', ') || 'no test named'}):\n${fixed.tail}`,
    );
  if (!fixed.parsed) errors.push('no per-test results could be parsed from the fixed run');
  const unexpected = buggy.failed.filter((id) => !expected.includes(id));
  const notFailing = expected.filter((id) => !buggy.failed.includes(id));
  // Runners that list only failing files' tests (vitest, jest without --verbose) name no passing test
  // of a green run: then the same number of tests, none failing, is the evidence.
  const listsAll = fixed.passed.length >= buggy.passed.length + buggy.failed.length;
  const notPassing = listsAll ? expected.filter((id) => !fixed.passed.includes(id)) : [];
  // The fixed run must not lose tests beyond the snapshot's failures (an upper bound kept from when
  // jest's summary of failing tests was counted twice).
  if (fixed.total < buggy.total - buggy.failed.length)
    errors.push(`the fixed run has ${fixed.total} tests, the snapshot's ${buggy.total}`);
  if (unexpected.length) errors.push(`other tests fail on the snapshot: ${unexpected.join(', ')}`);
  if (notFailing.length) errors.push(`recorded tests do not fail on the snapshot: ${notFailing.join(', ')}`);
  if (notPassing.length) errors.push(`recorded tests are not reported passing with the fix: ${notPassing.join(', ')}`);
  if (expected.length === 0) errors.push('no failing test recorded');
  return errors;
}
