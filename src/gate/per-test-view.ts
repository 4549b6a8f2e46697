// The per-test view of one gate run (docs/design.md §3.2.1): which tests ran and how each ended. Where
// the runtime guard's records name the tests (every record complete, every record that counted tests
// naming as many as it counted, and a runner whose guard turns a recorded test into the id its parser
// gives), the view comes from inside the test processes, whatever reporter or quiet flag the project
// chose; the parsed output and the runner's machine report become cross-checks, and what they say
// otherwise is a conflict on the report, which the judge names when the baseline did not have it.
// Where the records cannot name the tests, the view is the parsed output's, as the gate read it
// before, and the report says where it came from (`view`).
import type { GuardRecord, GuardTestCase } from '../core/guard-record.ts';
import type {
  EvidenceConflict,
  GuardObservation,
  PrintedCounts,
  TestCaseResult,
  TestReport,
  TestStatus,
  TestView,
} from '../core/test-report.ts';

/** A runner's guard's `testCase`: a recorded test as that runner's output parser names it. */
export type NameTestCase = (recorded: GuardTestCase) => TestCaseResult;

type Counts = { passed: number; failed: number; skipped: number };

/**
 * The report with its view: `parsed` (the output's or the JUnit file's, its `guard` and `witness`
 * already read) as it is, or its tests and counts taken from the guard's records.
 */
export function perTestView(parsed: TestReport, testCase?: NameTestCase): TestReport {
  const named = testCase && parsed.guard ? namedCases(parsed.guard.records, testCase) : null;
  if (!named) return outputView(parsed);
  const { tests, conflicts } = deduplicated(named);
  const counts = countsOf(tests);
  return {
    ...parsed,
    // The output's format when it was read, so its reader is still known; else the runner's own.
    format: parsed.parsed ? parsed.format : (parsed.guard?.runner ?? parsed.format),
    parsed: true,
    ...counts,
    total: tests.length,
    tests: tests.map((t) => withPrintedDetails(t, parsed.tests)),
    view: 'inside',
    conflicts: [...conflicts, ...crossChecks(tests, counts, parsed)],
    printed: printedCounts(parsed),
  };
}

function printedCounts(parsed: TestReport): PrintedCounts {
  const { format, passed, failed, skipped, total } = parsed;
  return { format, parsed: parsed.parsed, passed, failed, skipped, total };
}

/**
 * Each test the records name, as the runner's parser names it, when they name them all: null when a
 * record is incomplete, one that counted tests names none or another number, or none counted any.
 */
function namedCases(records: readonly GuardRecord[], testCase: NameTestCase): TestCaseResult[] | null {
  if (records.length === 0 || records.some((r) => !r.complete)) return null;
  const counting = records.filter((r) => r.tests !== null || r.cases !== undefined);
  if (counting.length === 0) return null;
  const named: TestCaseResult[] = [];
  for (const record of counting) {
    if (!record.tests || !record.cases || !sameCounts(record.tests, countsOf(record.cases.map(asStatus)))) return null;
    named.push(...oncePerTest(record.cases.map((recorded) => fromRecord(recorded, testCase))));
  }
  return named.length > 0 ? named : null;
}

/**
 * One process's tests, one per id: a test that ended twice there (pytest's call, then its teardown's
 * error: "1 passed, 1 error") is one test, at its worse outcome; no conflict, one process said both.
 */
function oncePerTest(tests: TestCaseResult[]): TestCaseResult[] {
  const byId = new Map<string, TestCaseResult>();
  for (const test of tests) {
    const seen = byId.get(test.id);
    if (!seen || RANK[test.status] > RANK[seen.status]) byId.set(test.id, test);
  }
  return [...byId.values()];
}

function asStatus(recorded: GuardTestCase): { status: TestStatus } {
  return { status: recorded.outcome };
}

/** The runner's name for the test, with the outcome and the failure the guard saw. */
function fromRecord(recorded: GuardTestCase, testCase: NameTestCase): TestCaseResult {
  const test: TestCaseResult = { ...testCase(recorded), status: recorded.outcome };
  if (test.message === undefined && recorded.message !== undefined) test.message = recorded.message;
  if (test.stack === undefined && recorded.stack !== undefined) test.stack = recorded.stack;
  return test;
}

/** Worst first: a test seen ending two ways is never counted as the better one. */
const RANK: Record<TestStatus, number> = { failed: 2, skipped: 1, passed: 0 };

/**
 * One test per id: a test two processes ended alike is one test (a command that runs a file twice),
 * one they ended differently is a conflict of evidence, counted as its worse outcome.
 */
function deduplicated(named: TestCaseResult[]): { tests: TestCaseResult[]; conflicts: EvidenceConflict[] } {
  const byId = new Map<string, TestCaseResult>();
  const conflicts = new Map<string, EvidenceConflict>();
  for (const test of named) {
    const seen = byId.get(test.id);
    if (!seen) {
      byId.set(test.id, test);
      continue;
    }
    if (seen.status === test.status) continue;
    conflicts.set(test.id, {
      subject: `twice:${test.id}`,
      message: `\`${test.id}\` ended ${seen.status} in one test process and ${test.status} in another`,
    });
    if (RANK[test.status] > RANK[seen.status]) byId.set(test.id, test);
  }
  return { tests: [...byId.values()], conflicts: [...conflicts.values()] };
}

/** The parser's richer fields (its message as the loop's fingerprints read it, the values, the time) where it has the test. */
function withPrintedDetails(test: TestCaseResult, printed: readonly TestCaseResult[]): TestCaseResult {
  const same = printed.find((p) => p.id === test.id && p.status === test.status);
  if (!same) return test;
  const detailed = { ...test };
  for (const key of ['message', 'stack', 'expected', 'actual'] as const) if (same[key] !== undefined) detailed[key] = same[key];
  if (same.durationMs !== undefined) detailed.durationMs = same.durationMs;
  return detailed;
}

/** What the output and the machine report say against the view from inside. */
function crossChecks(tests: readonly TestCaseResult[], counts: Counts, parsed: TestReport): EvidenceConflict[] {
  const inside = new Map(tests.map((t) => [t.id, t.status]));
  const conflicts: EvidenceConflict[] = [];
  for (const printed of parsed.tests) {
    const status = inside.get(printed.id);
    if (status === undefined)
      conflicts.push({
        subject: `unseen:${printed.id}`,
        message: `the runner's output names \`${printed.id}\` (${printed.status}), which no test process reported ending`,
      });
    else if (status !== printed.status)
      conflicts.push({
        subject: `status:${printed.id}:${printed.status}:${status}`,
        message: `the runner's output says \`${printed.id}\` ${printed.status}; inside its test process it ${status}`,
      });
  }
  if (parsed.parsed) conflicts.push(...countConflict('output', "the runner's output", parsed, counts));
  if (parsed.witness)
    conflicts.push(...countConflict('witness', `the runner's own report (${parsed.witness.runner})`, parsed.witness, counts));
  return conflicts;
}

/**
 * Passes and failures only: what a runner counts as skipped differs between its reports (an expected
 * failure, a todo, a pending test), as the guard's count check (src/verify/guard-findings.ts) knows.
 * One subject per witness, whatever the numbers: a report that counts other units than the tests its
 * runner ends (pytest's JUnit XML folds subtests into their test) differs at the baseline and in the
 * replay alike, by other numbers and in other counts as the fix turns failures into passes.
 */
function countConflict(name: string, what: string, given: Counts, inside: Counts): EvidenceConflict[] {
  if (given.passed === inside.passed && given.failed === inside.failed) return [];
  return [
    {
      subject: `counts:${name}`,
      message: `${what} counts ${spelled(given)}; inside the test processes ${spelled(inside)} ended`,
    },
  ];
}

function spelled(counts: Counts): string {
  return `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
}

/** The output's view, as the gate read it before: named tests, counts only, or nothing. */
function outputView(parsed: TestReport): TestReport {
  if (parsed.parsed) return { ...parsed, view: parsed.tests.length > 0 ? 'output' : 'counts' };
  const counted = guardCounts(parsed.guard ?? null);
  if (!counted) return { ...parsed, view: 'none' };
  // The output could not be read, but the guard counted every process's tests: counts, no names.
  return {
    ...parsed,
    format: counted.runner,
    parsed: true,
    ...counted.counts,
    total: counted.counts.passed + counted.counts.failed + counted.counts.skipped,
    view: 'counts' satisfies TestView,
    printed: printedCounts(parsed),
  };
}

/** The tests every guarded process counted, summed (each counts only the tests it ran); null unless all did. */
function guardCounts(guard: GuardObservation | null): { runner: string; counts: Counts } | null {
  if (!guard || guard.records.length === 0 || guard.records.some((r) => !r.complete)) return null;
  const counted = guard.records.flatMap((r) => (r.tests ? [r.tests] : []));
  if (counted.length === 0) return null;
  const counts = counted.reduce(
    (sum, t) => ({ passed: sum.passed + t.passed, failed: sum.failed + t.failed, skipped: sum.skipped + t.skipped }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  return { runner: guard.runner, counts };
}

function countsOf(tests: ReadonlyArray<{ status: TestStatus }>): Counts {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const t of tests) counts[t.status] += 1;
  return counts;
}

function sameCounts(a: Counts, b: Counts): boolean {
  return a.passed === b.passed && a.failed === b.failed && a.skipped === b.skipped;
}
