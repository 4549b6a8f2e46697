// The overfitting benchmark (issue 30): for each real bug, *every* plausible candidate of the repair
// engine, not just the one it picks: its candidates validated in rank order to exhaustion, up to
// the engine's 300 (lib/validate-all.ts; overfit-written.ts does the same on the written corpus).
// Each one that passes is judged against the upstream fix (the same source, or a judgement kept in
// the bug's meta.json: "unjudged" otherwise, listed for a person to judge) and then runs through the
// product's own path (lib/known-patch-run.ts: the `script` engine applies it in a real `fixloop
// run`), which says the level it would be published at. The question: does any incorrect plausible
// candidate reach `verified`, and does a correct one stay there? Each is also run against the
// upstream fix (lib/upstream-oracle.ts: the suite's calls and generated inputs, where the two give
// different results), an oracle independent of the visible tests, shown beside the hand judgement.
// With `--parallel N`, candidates are validated in N copies of the checkout at once.
// Run: node bench/overfit.ts --filter <ids> [--results <file>] [--max 300] [--no-levels] [--no-oracle] [--parallel N] [--half tuning|held-out]
import { appendFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { args, flag } from './lib/args.ts';
import { runKnownPatch, type Measured } from './lib/known-patch-run.ts';
import { realBaseline } from './lib/real-candidates.ts';
import { materializeReal, type RealBug } from './lib/real-corpus.ts';
import { loadRealHalf } from './lib/real-split.ts';
import { reportUnbuilt } from './lib/real-unbuilt.ts';
import { judgeCorrect } from './lib/real-judge.ts';
import { compareWithUpstream, oracleText, type OracleVerdict } from './lib/upstream-oracle.ts';
import { validateAll, type AllPlausible } from './lib/validate-all.ts';

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

/** Every plausible candidate of the bug's first `max`, validated in its set-up checkout. */
async function plausibleOf(bug: RealBug): Promise<AllPlausible | string> {
  const dir = materializeReal(bug, 'overfit');
  try {
    const baseline = await realBaseline(bug, dir, TEST_TIMEOUT_MS);
    if (typeof baseline === 'string') return baseline;
    return await validateAll(dir, baseline, { test: bug.test, max, parallel, timeoutMs: TEST_TIMEOUT_MS, label: bug.id });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: Array<Measured & { oracle?: OracleVerdict }> = [];
reportUnbuilt(realDir, { half: flag('--half'), match: (b) => filters.length === 0 || filters.some((f) => b.id.includes(f)) });
for (const bug of loadRealHalf(realDir, flag('--half')).filter(
  (b) => filters.length === 0 || filters.some((f) => b.id.includes(f)),
)) {
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
      : {
          bug: bug.id,
          source,
          hash: '',
          correct: judgeCorrect(bug, candidate.patch),
          status: 'tests_green',
          level: '–',
          reason: '',
          assessMs: 0,
          runMs: 0,
          commit: '',
        };
    const row: Measured & { oracle?: OracleVerdict } = oracle
      ? { ...measured, oracle: await compareWithUpstream(bug, candidate.patch, found.failing) }
      : measured;
    rows.push(row);
    if (resultsFile)
      appendFileSync(resultsFile, `${JSON.stringify({ ...row, description: candidate.description, patch: candidate.patch })}\n`);
    console.log(
      `    ${source}: correct ${row.correct}, ${row.status}, ${row.level}: ${candidate.description}${row.oracle ? `\n      the oracle: ${oracleText(row.oracle)}` : ''}${row.correct === 'unjudged' ? `\n${candidate.patch}` : ''}`,
    );
  }
}

const green = rows.filter((r) => r.status === 'tests_green');
const count = (correct: string, level?: string) =>
  green.filter((r) => r.correct === correct && (level === undefined || r.level === level)).length;
console.log(
  `\nplausible candidates: ${rows.length}; correct ${count('yes')} (verified ${count('yes', 'verified')}), incorrect ${count('no')} (verified ${count('no', 'verified')}), unjudged ${count('unjudged')} (verified ${count('unjudged', 'verified')})`,
);
if (oracle) {
  const by = (correct: string, verdict: OracleVerdict['verdict']) =>
    rows.filter((r) => r.correct === correct && r.oracle?.verdict === verdict).length;
  console.log(
    `the oracle: incorrect ones it finds different from the upstream fix ${by('no', 'differs')} of ${rows.filter((r) => r.correct === 'no').length}; correct ones it finds the same ${by('yes', 'agrees')} of ${rows.filter((r) => r.correct === 'yes').length}`,
  );
}
