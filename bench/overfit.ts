// The overfitting benchmark (issue 30): for each real bug, *every* plausible candidate of the repair
// engine, not just the one it picks. Its candidates, generated and ranked as the engine does
// (lib/real-candidates.ts), are validated in rank order to exhaustion (the failing tests first, then
// the whole suite, as the engine validates them; offline), up to the engine's 300.
// Each one that passes is judged against the upstream fix (the same source, or a judgement kept in
// the bug's meta.json: "unjudged" otherwise, listed for a person to judge) and then runs through the
// product's own path (lib/known-patch-run.ts: the `script` engine applies it in a real `fixloop
// run`), which says the level it would be published at. The question: does any incorrect plausible
// candidate reach `verified`, and does a correct one stay there? Each is also run against the
// upstream fix (lib/upstream-oracle.ts: the suite's calls and generated inputs, where the two give
// different results), an oracle independent of the visible tests, shown beside the hand judgement.
// With `--parallel N`, candidates are validated in N copies of the checkout at once.
// Run: node bench/overfit.ts --filter <ids> [--results <file>] [--max 300] [--no-levels] [--no-oracle] [--parallel N]
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RankedCandidate } from '../src/engines/repair/rank-candidates.ts';
import { scriptsOf } from '../src/gate/machine-report.ts';
import { runGate } from '../src/gate/run-gate.ts';
import { focusedTestCommand } from '../src/runners/focused-test-command.ts';
import { fileDiff } from '../src/workspace/unified-diff.ts';
import { args, flag } from './lib/args.ts';
import { runKnownPatch, type Measured } from './lib/known-patch-run.ts';
import { realBaseline, realCandidates } from './lib/real-candidates.ts';
import { loadRealCorpus, materializeReal, type RealBug } from './lib/real-corpus.ts';
import { judgeCorrect } from './lib/real-judge.ts';
import { compareWithUpstream, oracleText, type OracleVerdict } from './lib/upstream-oracle.ts';
import type { TestCaseResult } from '../src/core/test-report.ts';

const realDir = fileURLToPath(new URL('./real', import.meta.url));
const filters = (flag('--filter') ?? '').split(',').filter(Boolean);
const resultsFile = flag('--results');
const max = Number(flag('--max') ?? 300);
const TEST_TIMEOUT_MS = 300_000;
const levels = !args.includes('--no-levels');
const oracle = !args.includes('--no-oracle');
// One at a time unless asked: a vitest suite already uses every core (ufo-07 with two copies took
// as long as ufo-02 with one, docs/benchmarks.md).
const parallel = Math.max(1, Math.min(availableParallelism(), Number(flag('--parallel') ?? 1)));

/** A copy of a set-up checkout beside it (its node_modules links kept as they are). */
function copyOf(dir: string, index: number): string {
  const copy = `${dir}-worker-${index}`;
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

interface Plausible {
  bug: string;
  rank: number;
  template: string;
  description: string;
  patch: string;
}

/** The candidate as a patch against the pristine file, as the workspace's diff shows it. */
function patchOf(candidate: RankedCandidate, before: string): string {
  return fileDiff({ path: candidate.file, before: Buffer.from(before), after: Buffer.from(candidate.result), mode: '100644' });
}

/** Every candidate (of the first `max`) that passes the failing tests and then the whole suite. */
async function plausibleOf(bug: RealBug): Promise<{ plausible: Plausible[]; validated: number; candidates: number; failing: TestCaseResult[] } | string> {
  const dir = materializeReal(bug, 'overfit');
  const copies: string[] = [];
  try {
    const baseline = await realBaseline(bug, dir, TEST_TIMEOUT_MS);
    if (typeof baseline === 'string') return baseline;
    const { sandbox, signal } = baseline;
    const failing = baseline.gate.report.tests.filter((t) => t.status === 'failed');
    if (failing.length === 0) return 'the baseline has no failing test';
    const { ranked, sources } = await realCandidates(dir, baseline, bug.test);
    const focused = focusedTestCommand(bug.test, failing, scriptsOf(dir));
    const plausible: Plausible[] = [];
    const taken = ranked.slice(0, max);
    // One copy of the set-up checkout per worker, as the engine validates in parallel copies.
    for (let i = 1; i < parallel; i++) copies.push(copyOf(dir, i));
    let next = 0;
    const work = async (cwd: string) => {
      for (let index = next++; index < taken.length; index = next++) {
        const candidate = taken[index];
        if (!candidate) continue;
        const before = sources.get(candidate.file) ?? readFileSync(join(cwd, candidate.file), 'utf8');
        writeFileSync(join(cwd, candidate.file), candidate.result);
        try {
          const alone = focused ? await runGate(sandbox, { command: focused, cwd, timeoutMs: TEST_TIMEOUT_MS, signal }) : null;
          if (alone && !alone.passed) continue;
          const whole = await runGate(sandbox, { command: bug.test, cwd, timeoutMs: TEST_TIMEOUT_MS, signal });
          if (!whole.passed) continue;
          plausible.push({ bug: bug.id, rank: index + 1, template: candidate.template, description: candidate.description, patch: patchOf(candidate, before) });
          console.log(`  ${bug.id}: candidate ${index + 1} passes: ${candidate.description}`);
        } finally {
          writeFileSync(join(cwd, candidate.file), before);
        }
      }
    };
    await Promise.all([dir, ...copies].map(work));
    return { plausible: plausible.sort((a, b) => a.rank - b.rank), validated: taken.length, candidates: ranked.length, failing };
  } finally {
    for (const d of [dir, ...copies]) rmSync(d, { recursive: true, force: true });
  }
}

const rows: Array<Measured & { oracle?: OracleVerdict }> = [];
for (const bug of loadRealCorpus(realDir).filter((b) => filters.length === 0 || filters.some((f) => b.id.includes(f)))) {
  const found = await plausibleOf(bug);
  if (typeof found === 'string') {
    console.log(`${bug.id}: not measured: ${found.split('\n')[0]}`);
    continue;
  }
  console.log(`${bug.id}: ${found.plausible.length} plausible of ${found.validated} validated (${found.candidates} candidates)`);
  for (const candidate of found.plausible) {
    const source = `candidate #${candidate.rank} (${candidate.template})`;
    const measured: Measured = levels
      ? await runKnownPatch(bug, source, candidate.patch)
      : { bug: bug.id, source, hash: '', correct: judgeCorrect(bug, candidate.patch), status: 'tests_green', level: '–', reason: '', assessMs: 0, runMs: 0, commit: '' };
    const row: Measured & { oracle?: OracleVerdict } = oracle ? { ...measured, oracle: await compareWithUpstream(bug, candidate.patch, found.failing) } : measured;
    rows.push(row);
    if (resultsFile) appendFileSync(resultsFile, `${JSON.stringify({ ...row, description: candidate.description, patch: candidate.patch })}\n`);
    console.log(`    ${source}: correct ${row.correct}, ${row.status}, ${row.level}: ${candidate.description}${row.oracle ? `\n      the oracle: ${oracleText(row.oracle)}` : ''}${row.correct === 'unjudged' ? `\n${candidate.patch}` : ''}`);
  }
}

const green = rows.filter((r) => r.status === 'tests_green');
const count = (correct: string, level?: string) => green.filter((r) => r.correct === correct && (level === undefined || r.level === level)).length;
console.log(`\nplausible candidates: ${rows.length}; correct ${count('yes')} (verified ${count('yes', 'verified')}), incorrect ${count('no')} (verified ${count('no', 'verified')}), unjudged ${count('unjudged')} (verified ${count('unjudged', 'verified')})`);
if (oracle) {
  const by = (correct: string, verdict: OracleVerdict['verdict']) => rows.filter((r) => r.correct === correct && r.oracle?.verdict === verdict).length;
  console.log(`the oracle: incorrect ones it finds different from the upstream fix ${by('no', 'differs')} of ${rows.filter((r) => r.correct === 'no').length}; correct ones it finds the same ${by('yes', 'agrees')} of ${rows.filter((r) => r.correct === 'yes').length}`);
}
