// What the runtime guard saw inside a judged test process, as findings (docs/design.md §3.2.7). Every
// event the baseline's run did not have (the pristine code's own, by kind, file and what was touched)
// is `runtime_tampering`, naming the file, the line and what was touched; a guarded process with no
// complete record, or a run with no guarded process where the baseline had one, is
// `guard_record_missing` (missing evidence, never green); and the tests the guard itself saw end
// decide against the runner's report and its machine report, which code in the process can forge
// (write a passing JUnit file, print a passing summary, then replace the process).
import type { Finding } from '../core/findings.ts';
import type { GateResult } from '../core/gate-result.ts';
import type { GuardEvent, GuardRecord, GuardTestCase } from '../core/guard-record.ts';
import type { GuardObservation, TestReport } from '../core/test-report.ts';
import type { EvidenceKind } from '../core/repo-config.ts';
import type { RuntimeGuardStatus } from '../core/run-result.ts';

const MAX_FINDINGS = 10;

export function guardFindings(baseline: TestReport, final: GateResult): Finding[] {
  const now = final.report.guard;
  // A runner with no guard (the report says so). Every gate run loads the guard: only the judged runs'
  // records come here (the replay, the second observation), never the loop's or the engines'.
  if (!now) return [];
  const reached = (baseline.guard?.records.length ?? 0) > 0;
  const findings: Finding[] = [];
  if (reached && now.records.length === 0)
    findings.push({
      kind: 'guard_record_missing',
      message: `no ${now.runner} process loaded fixloop's runtime guard, although the baseline's did: what ran is unknown`,
    });
  const incomplete = now.records.filter((r) => !r.complete).length;
  if (incomplete > 0)
    findings.push({
      kind: 'guard_record_missing',
      message: `${incomplete} ${now.runner} process(es) left no complete record of fixloop's runtime guard: the process ended before the runner finished, or its record was not the guard's`,
    });
  findings.push(...eventFindings(baseline.guard ?? null, now));
  findings.push(...bodyFindings(baseline.guard ?? null, now));
  // Where the view came from inside, the output's and the machine report's counts are its
  // cross-checks (per-test-view.ts): a disagreement the baseline did not have is judged there, as
  // `evidence_conflict`. Counting here too would hold the runner's units against the guard's (a
  // pytest JUnit report folds the subtests the guard names one by one).
  if (final.report.view !== 'inside') findings.push(...countFindings(now, final.report));
  return findings;
}

function eventFindings(before: GuardObservation | null, now: GuardObservation): Finding[] {
  const known = new Set((before?.records ?? []).flatMap((r) => r.events.map(eventKey)));
  const fresh = new Map<string, GuardEvent>();
  for (const event of now.records.flatMap((r) => r.events)) if (!known.has(eventKey(event))) fresh.set(eventKey(event), event);
  return [...fresh.values()].slice(0, MAX_FINDINGS).map((e) => ({
    kind: 'runtime_tampering',
    message: `${e.file ? `\`${e.file}${e.line !== null ? `:${e.line}` : ''}\`` : 'code the guard could not place'} ${e.detail} (seen by fixloop's runtime guard inside ${now.runner}; event \`${e.kind}\`)`,
    ...(e.file ? { path: e.file } : {}),
  }));
}

/**
 * A test the runner reported passed whose body the guard's own wrapper saw raise, or never saw end:
 * the outcome was rewritten inside the process (a test reported failed whose body returned is not one:
 * hooks, timeouts and teardowns fail tests legitimately). One the baseline's run had too, for the same
 * test and body, is the runner's own way, not the patch's.
 */
function bodyFindings(before: GuardObservation | null, now: GuardObservation): Finding[] {
  const disagrees = (c: GuardTestCase) => c.outcome === 'passed' && (c.body === 'raised' || c.body === 'unseen');
  // A body the wrapper never saw on the pristine code, whatever its outcome there (a plugin that calls
  // the test function by its own route), is this project's way, not the patch's.
  const ownWay = (c: GuardTestCase) => disagrees(c) || c.body === 'unseen';
  const known = new Set((before?.records ?? []).flatMap((r) => (r.cases ?? []).filter(ownWay).map(bodyKey)));
  const fresh = new Map<string, GuardTestCase>();
  for (const c of now.records.flatMap((r) => r.cases ?? [])) if (disagrees(c) && !known.has(bodyKey(c))) fresh.set(bodyKey(c), c);
  return [...fresh.values()].slice(0, MAX_FINDINGS).map((c) => ({
    kind: 'runtime_tampering',
    message: `${now.runner} reported \`${[c.file ?? '', ...c.titles].filter(Boolean).join(' > ')}\` passed, but fixloop's runtime guard ${
      c.body === 'raised'
        ? `saw its body raise${c.raised ? ` \`${c.raised.split('\n')[0]}\`` : ''}`
        : 'never saw its body end (its wrapper of the test function was bypassed or replaced)'
    }: the outcome was rewritten inside the test process`,
    ...(c.file ? { path: c.file } : {}),
  }));
}

function bodyKey(c: GuardTestCase): string {
  return `${c.file ?? ''}\u0000${c.titles.join('\u0000')}\u0000${c.body ?? ''}`;
}

/** Line numbers move with the patch: an event is the baseline's when its kind, file and detail are. */
function eventKey(event: GuardEvent): string {
  return `${event.kind}\u0000${event.file ?? ''}\u0000${event.detail}`;
}

/**
 * The runner's counts against the guard's. One counted process: its counts are the run's. Several (a
 * command that runs pytest twice): no report may show fewer failures than the guard saw in all.
 */
function countFindings(now: GuardObservation, report: TestReport): Finding[] {
  const counted = now.records.filter(
    (r): r is GuardRecord & { tests: NonNullable<GuardRecord['tests']> } => r.complete && r.tests !== null,
  );
  if (counted.length === 0) return [];
  const seen = counted.reduce((sum, r) => ({ passed: sum.passed + r.tests.passed, failed: sum.failed + r.tests.failed }), {
    passed: 0,
    failed: 0,
  });
  // The output's own counts, also where the report's are the guard's (src/gate/per-test-view.ts).
  const printed = report.printed ?? report;
  const witnesses = [
    ...(printed.parsed ? [{ name: 'output', passed: printed.passed, failed: printed.failed }] : []),
    ...(report.witness ? [{ name: 'own JUnit report', passed: report.witness.passed, failed: report.witness.failed }] : []),
  ];
  return witnesses
    .filter((w) => (counted.length === 1 ? w.passed !== seen.passed || w.failed !== seen.failed : w.failed < seen.failed))
    .map((w) => ({
      kind: 'runtime_tampering',
      message: `${now.runner}'s ${w.name} says ${w.passed} passed and ${w.failed} failed, but fixloop's runtime guard inside it saw ${seen.passed} pass and ${seen.failed} fail: the report is not what ran`,
    }));
}

/** What the report says of the guard, and whether the level may be `verified` without it. */
export function runtimeGuardStatus(baseline: TestReport, final: TestReport, evidence: EvidenceKind): RuntimeGuardStatus {
  const now = final.guard;
  const available = !!now && (baseline.guard?.records.length ?? 0) > 0;
  return { runner: now?.runner ?? null, available, processes: now?.records.length ?? 0, accepted: evidence === 'exit-code' };
}
