// Every runner in the registry meets the same contract on its own recorded output: a passing, a
// failing, a crashing (a syntax error at collection) and an empty run of a tiny project, and the
// focused run of its failing test, recorded once with the real runner (test/fixtures/runners/, see
// record.sh there). A runner added to the registry without recordings fails here.
// The Node runners' runtime guard, on real runs recorded under each reporter and quiet flag a project
// may choose (record-guard.sh there): the tests named from inside the processes are the same in every
// run, and are the tests the default reporter's output names.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../src/core/gate-result.ts';
import type { GuardRecord } from '../../src/core/guard-record.ts';
import type { TestCaseResult, TestReport } from '../../src/core/test-report.ts';
import { stripAnsi } from '../../src/formats/strip-ansi.ts';
import { environmentFailure } from '../../src/gate/environment-failure.ts';
import { parseTestOutput } from '../../src/gate/parse-test-output.ts';
import { focusedTestCommand } from '../../src/runners/focused-test-command.ts';
import { RUNNERS, runnerOf, type TestRunner } from '../../src/runners/registry.ts';
import { FOCUSED_GUARD_CELLS, GUARD_CELLS } from '../fixtures/runners/guard-cells.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/runners');

interface Recording {
  recordedWith: string;
  runs: Record<string, { command: string; exitCode: number; output: string }>;
}

function recordingOf(runner: TestRunner): Recording {
  return JSON.parse(readFileSync(join(FIXTURES, runner.id, 'runs.json'), 'utf8')) as Recording;
}

/** A recorded run as the gate returns it: its exit code decides, its output is parsed. */
function gateOf(runner: TestRunner, scenario: string): GateResult {
  const run = recordingOf(runner).runs[scenario];
  if (!run) throw new Error(`${runner.id}: no recorded ${scenario} run`);
  const output = readFileSync(join(FIXTURES, runner.id, run.output), 'utf8');
  const common = { output, report: parseTestOutput(output), durationMs: 1 };
  return run.exitCode === 0
    ? { ...common, passed: true }
    : { ...common, passed: false, reason: 'NON_ZERO_EXIT', exitCode: run.exitCode };
}

const counts = (report: TestReport) => ({ passed: report.passed, failed: report.failed, total: report.total });
const baseline = { timeoutSeconds: 600, repositoryFiles: ['test/math.test.js', 'tests/test_math.py'] };

/** Other ways its users start it, directly (npm scripts are followed for every runner). */
const LAUNCHERS: Record<string, string[]> = {
  'node-test': ['node --test', 'node --experimental-test-coverage --test test/'],
  vitest: ['npx vitest run', 'pnpm exec vitest run', 'yarn vitest'],
  jest: ['npx jest --ci', 'pnpm exec jest', 'yarn jest', './node_modules/.bin/jest'],
  mocha: ['npx mocha', 'node_modules/.bin/_mocha test/', 'yarn mocha'],
  pytest: ['pytest -q', 'python -m pytest', 'python3 -m pytest tests/'],
};

/**
 * What the runner ran when given the failing test's files as well as its name: that test alone.
 * (node's runner reads the options after its first file as the tests' own arguments, so its name
 * pattern must come before the files, or the whole file runs.)
 */
const FOCUSED_WITH_FILES: Record<string, { passed: number; failed: number } | undefined> = {
  'node-test': { passed: 0, failed: 1 },
  vitest: { passed: 0, failed: 1 },
  jest: { passed: 0, failed: 1 },
};

describe.each(RUNNERS.map((runner) => [runner.id, runner] as const))('the %s runner', (id, runner) => {
  it('has recordings of its passing, failing, crashing, empty and focused runs', () => {
    expect(existsSync(join(FIXTURES, id, 'runs.json'))).toBe(true);
    expect(Object.keys(recordingOf(runner).runs)).toEqual(expect.arrayContaining(['pass', 'fail', 'crash', 'empty', 'focused']));
  });

  it('is recognised from its command, directly and through npm scripts', () => {
    const command = recordingOf(runner).runs.pass?.command ?? '';
    expect(runnerOf(command)?.id).toBe(id);
    expect(runnerOf('npm test', { test: command })?.id).toBe(id);
    expect(runnerOf('npm run unit', { unit: command })?.id).toBe(id);
    expect(runnerOf('npm test', { lint: command })).toBeNull();
    for (const launcher of LAUNCHERS[id] ?? []) expect(runnerOf(launcher)?.id, launcher).toBe(id);
    expect(LAUNCHERS[id]?.length).toBeGreaterThan(0);
  });

  it('is asked for its machine report, when it has one, by what its recorded command reaches', () => {
    const report = runner.machineReport;
    if (!report) return;
    const command = recordingOf(runner).runs.pass?.command ?? '';
    const asked = report.ask({ command, env: {}, packageScripts: {} }, `/reports/${report.file}`);
    expect([...Object.values(asked?.env ?? {}), asked?.command ?? ''].join(' ')).toContain(`/reports/${report.file}`);
    expect(RUNNERS.filter((r) => r.machineReport?.file === report.file)).toHaveLength(1);
  });

  it('parses a passing run with its own parser, and the registry picks that parser', () => {
    const gate = gateOf(runner, 'pass');
    expect(gate.passed).toBe(true);
    expect(runner.output.parse(stripAnsi(gate.output))?.format).toBe(id);
    expect(gate.report).toMatchObject({ format: id, parsed: true, passed: 2, failed: 0, total: 2 });
    expect(environmentFailure(gate, { ...baseline, testCommand: 'x' })).toBeNull();
  });

  it('parses a failing run: which test failed, and why', () => {
    const gate = gateOf(runner, 'fail');
    expect(gate.passed).toBe(false);
    expect(gate.report.format).toBe(id);
    expect(counts(gate.report)).toEqual({ passed: 1, failed: 1, total: 2 });
    const failing = gate.report.tests.filter((t) => t.status === 'failed');
    expect(failing.map((t) => t.name)).toEqual([id === 'pytest' ? 'test_adds_numbers' : 'adds numbers']);
    expect(failing[0]?.message).toMatch(/3/);
    // Its own frames, where it prints some beyond the language's stack traces, point into the test file.
    for (const frames of runner.output.frames ?? [])
      expect([...gate.output.matchAll(frames)].map((m) => m[1])).toContainEqual(
        expect.stringMatching(/^tests?\/(math\.test\.js|test_math\.py)$/),
      );
    expect(environmentFailure(gate, { ...baseline, testCommand: 'x' })).toBeNull();
  });

  it('never reads a crash at collection as green, nor as a broken environment: the code is at fault', () => {
    const gate = gateOf(runner, 'crash');
    expect(gate.passed).toBe(false);
    expect(gate.report.passed === gate.report.total && gate.report.total > 0).toBe(false);
    expect(gate.report.failed > 0 || !gate.report.parsed).toBe(true);
    expect(environmentFailure(gate, { ...baseline, testCommand: 'x' })).toBeNull();
  });

  it('recognises an empty run as "no tests ran", in its own words', () => {
    const gate = gateOf(runner, 'empty');
    expect(gate.report.total).toBe(0);
    const { output, exit } = runner.noTestsRan;
    const exitCode = gate.passed ? 0 : gate.exitCode;
    expect(output.test(gate.output) || (exit !== undefined && exitCode === exit.code && exit.words.test(gate.output))).toBe(true);
    expect(environmentFailure(gate, { ...baseline, testCommand: 'x' })?.code).toBe('NO_TESTS_RAN');
  });

  it('focuses on the failing test with a command the runner accepts, which runs that test alone', () => {
    const { runs } = recordingOf(runner);
    const failing = gateOf(runner, 'fail').report.tests.filter((t) => t.status === 'failed');
    expect(focusedTestCommand(runs.fail?.command ?? '', failing)).toBe(runs.focused?.command);
    const focused = gateOf(runner, 'focused');
    expect(focused.report.format).toBe(id);
    expect(focused.report).toMatchObject({ passed: 0, failed: 1 });
    expect(focused.report.tests.filter((t) => t.status === 'failed').map((t) => t.name)).toEqual(failing.map((t) => t.name));
  });

  it("selects the failing test's file too where the runner and the report allow it", () => {
    const { runs } = recordingOf(runner);
    const failing = gateOf(runner, 'fail').report.tests.filter((t) => t.status === 'failed');
    const withFiles = focusedTestCommand(runs.fail?.command ?? '', failing, {}, { withFiles: true });
    const expected = FOCUSED_WITH_FILES[id];
    // pytest's ids name their files already; mocha's positional files would replace its spec.
    if (!expected) {
      expect(withFiles).toBe(id === 'pytest' ? runs.focused?.command : null);
      return;
    }
    expect(withFiles).toBe(runs['focused-files']?.command);
    expect(gateOf(runner, 'focused-files').report).toMatchObject(expected);
  });
});

/** A run recorded with the guard (record-guard.ts). */
interface GuardedRecording {
  version: string;
  cell: string;
  command: string;
  exitCode: number;
  output: string;
  records: Omit<GuardRecord, 'pid'>[];
}

function guardedRecordings(runner: TestRunner): GuardedRecording[] {
  const dir = join(FIXTURES, runner.id, 'guard');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as GuardedRecording);
}

const byId = (a: TestCaseResult, b: TestCaseResult) => a.id.localeCompare(b.id);
const outcomes = (tests: TestCaseResult[]) => ({
  passed: tests.filter((t) => t.status === 'passed').length,
  failed: tests.filter((t) => t.status === 'failed').length,
  skipped: tests.filter((t) => t.status === 'skipped').length,
});

describe.each(RUNNERS.filter((r) => GUARD_CELLS[r.id]).map((runner) => [runner.id, runner] as const))(
  "the %s runner's guard, under every reporter",
  (id, runner) => {
    const focusedCells = new Set((FOCUSED_GUARD_CELLS[id] ?? []).map((c) => c.name));
    const runs = guardedRecordings(runner).filter((r) => !focusedCells.has(r.cell));
    const focusedRuns = guardedRecordings(runner).filter((r) => focusedCells.has(r.cell));
    const cells = GUARD_CELLS[id] ?? [];
    /** The tests of a run as the guard's records name them, through the runner's own naming. */
    const view = (run: GuardedRecording) => {
      const testCase = runner.guard?.testCase;
      if (!testCase) throw new Error(`${id}: its guard names no tests`);
      return run.records.flatMap((r) => r.cases ?? []).map((c) => testCase(c));
    };
    const where = (run: GuardedRecording) => `${run.version} ${run.cell}`;

    it('has its runs recorded at two versions at least, under its default reporter and each other one', () => {
      const versions = [...new Set(runs.map((r) => r.version))];
      expect(versions.length).toBeGreaterThanOrEqual(2);
      for (const version of versions)
        expect(
          runs.filter((r) => r.version === version).map((r) => r.cell),
          version,
        ).toEqual(expect.arrayContaining(cells.map((c) => c.name)));
    });

    it('leaves complete records without events, whose counts are their cases', () => {
      for (const run of runs) {
        expect(run.exitCode, where(run)).toBe(1);
        for (const record of run.records) {
          expect(record, where(run)).toMatchObject({ complete: true, events: [] });
          expect(record.tests, where(run)).toEqual(outcomesOf(record.cases ?? []));
        }
      }
    });

    it.runIf(focusedCells.size > 0)(
      'leaves complete records of a run of the failing test alone, where a file runs no test, at every version',
      () => {
        const versions = new Set(runs.map((r) => r.version));
        expect(new Set(focusedRuns.map((r) => r.version))).toEqual(versions);
        for (const run of focusedRuns) {
          expect(run.exitCode, where(run)).toBe(1);
          for (const record of run.records) expect(record, where(run)).toMatchObject({ complete: true, events: [] });
          const tests = view(run);
          expect(
            tests.filter((t) => t.status === 'failed').map((t) => t.name),
            where(run),
          ).toEqual(['multiplies']);
          expect(
            tests.filter((t) => t.status === 'passed'),
            where(run),
          ).toEqual([]);
        }
      },
    );

    it('names the same tests, with the same ids and statuses, in every run', () => {
      const first = runs[0];
      if (!first) throw new Error(`${id}: no guarded recordings`);
      const expected = view(first)
        .sort(byId)
        .map((t) => ({ id: t.id, name: t.name, status: t.status }));
      expect(outcomes(view(first))).toEqual({ passed: 3, failed: 1, skipped: 1 });
      for (const run of runs)
        expect(
          view(run)
            .sort(byId)
            .map((t) => ({ id: t.id, name: t.name, status: t.status })),
          where(run),
        ).toEqual(expected);
    });

    it("names them as the default reporter's output is parsed, with the failure's message and stack", () => {
      for (const run of runs.filter((r) => r.cell === 'default')) {
        const parsed = parseTestOutput(run.output);
        const tests = view(run);
        expect(outcomes(tests), where(run)).toEqual({ passed: parsed.passed, failed: parsed.failed, skipped: parsed.skipped });
        // The parser names what the output shows (jest's and vitest's name only some tests of a run
        // of many files): each as the guard names it.
        expect(parsed.tests.length, where(run)).toBeGreaterThan(0);
        for (const test of parsed.tests)
          expect(
            tests.find((t) => t.id === test.id),
            `${where(run)}: ${test.id}`,
          ).toMatchObject({ name: test.name, status: test.status, ...(test.file ? { file: test.file } : {}) });
        if (parsed.tests.length === parsed.total)
          expect(tests.map((t) => t.id).sort(), where(run)).toEqual(parsed.tests.map((t) => t.id).sort());
        const failing = tests.find((t) => t.status === 'failed');
        expect(failing?.message, where(run)).toMatch(/5/);
        expect(failing?.stack, where(run)).toContain('test/math.test.js');
      }
    });

    it('focuses on the failing test with the same command in every run, as from the parsed output', () => {
      const command = cells[0]?.command ?? '';
      const focused = (failing: TestCaseResult[], withFiles: boolean) => focusedTestCommand(command, failing, {}, { withFiles });
      const failingOf = (run: GuardedRecording) => view(run).filter((t) => t.status === 'failed');
      const first = runs[0];
      if (!first) throw new Error(`${id}: no guarded recordings`);
      const expected = [focused(failingOf(first), false), focused(failingOf(first), true)];
      expect(expected[0]).toBeTruthy();
      for (const run of runs)
        expect([focused(failingOf(run), false), focused(failingOf(run), true)], where(run)).toEqual(expected);
      for (const run of runs.filter((r) => r.cell === 'default'))
        expect(
          focused(
            parseTestOutput(run.output).tests.filter((t) => t.status === 'failed'),
            false,
          ),
          where(run),
        ).toBe(expected[0]);
    });
  },
);

function outcomesOf(cases: NonNullable<GuardRecord['cases']>): GuardRecord['tests'] {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const c of cases) counts[c.outcome]++;
  return counts;
}
