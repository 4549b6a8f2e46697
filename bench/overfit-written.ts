// The overfitting benchmark on the written corpus (issue 30, item 4; overfit.ts is the real corpus's):
// every plausible candidate of the repair engine for each bug of bench/corpus, its candidates
// validated to exhaustion on the visible tests (lib/validate-all.ts), each judged by the bug's hidden
// tests (the oracle independent of the visible ones: correct when they pass too) and run through the
// product (the `script` engine applying it in a real `fixloop run`) for the level it would be
// published at. The question, as on the real corpus: does an incorrect plausible candidate reach
// `verified`, and does a correct one stay there? The projects run on this Node (24), as in bench/run.ts.
// Each is also assessed with its rivals, the other plausible candidates at its line, as alternatives
// (what the `repair` engine's exploration gives the assessment). Through the product, a `script`
// patch gets the assessment's own rivals (rival-search.ts) when nothing else keeps it from
// `verified`: the two levels agree when that search finds what validating every candidate found.
// `--relevel <file>`: no validation; the plausible candidates a former run wrote to its results file
// (each with its hidden tests' judgement) run through the product again, for the level it gives now.
// Run: node bench/overfit-written.ts [--filter <ids>] [--results <file>] [--max 300] [--no-levels] [--relevel <results>]
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { args, flag } from './lib/args.ts';
import { loadCorpus, type Bug } from './lib/corpus.ts';
import { assessAgainst } from './lib/assess-against.ts';
import { runPatchThroughProduct, type ProductView } from './lib/known-patch-run.ts';
import { projectBaseline } from './lib/real-candidates.ts';
import { passesHiddenTests } from './lib/hidden-judge.ts';
import { validateAll, type AllPlausible, type Plausible } from './lib/validate-all.ts';
import { lentNode, materialize } from './lib/workdir.ts';

const corpusDir = fileURLToPath(new URL('./corpus', import.meta.url));
const filters = (flag('--filter') ?? '').split(',').filter(Boolean);
const resultsFile = flag('--results');
const max = Number(flag('--max') ?? 300);
const levels = !args.includes('--no-levels');
const TEST_TIMEOUT_MS = 120_000;

// The validation's own runs (runGate, on the process sandbox) start the PATH's `node`: this one, as
// the product's runs get it through lib/workdir.ts (TypeScript bugs need a Node that strips types).
Object.assign(process.env, lentNode());

async function plausibleOf(bug: Bug): Promise<AllPlausible | string> {
  const dir = materialize(bug.project, 'overfit-written');
  try {
    const baseline = await projectBaseline(dir, bug.test, TEST_TIMEOUT_MS);
    if (typeof baseline === 'string') return baseline;
    return await validateAll(dir, baseline, { test: bug.test, max, parallel: 1, timeoutMs: TEST_TIMEOUT_MS, label: bug.id });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Row extends ProductView {
  bug: string;
  rank: number;
  correct: boolean;
  description: string;
  /** How many other plausible candidates share its line, and its level with them as alternatives. */
  rivals: number;
  levelWithRivals: string;
}

/** The product's assessment of `candidate` with its rivals (up to the three it compares) as the engine's alternatives. */
async function levelWithRivals(
  bug: Bug,
  candidate: Plausible,
  rivals: Plausible[],
  failing: AllPlausible['failing'],
): Promise<string> {
  const assessment = await assessAgainst({
    project: materialize(bug.project, 'overfit-rivals'),
    test: bug.test,
    patch: candidate.patch,
    alternatives: rivals.map((r) => ({ patch: r.patch, summary: r.description })),
    failing,
  });
  return assessment.level;
}

const rows: Row[] = [];
const bugs = loadCorpus(corpusDir).filter((b) => filters.length === 0 || filters.some((f) => b.id.includes(f)));
const relevel = flag('--relevel');
if (relevel) {
  await relevelFrom(relevel);
  process.exit(0);
}
for (const bug of bugs) {
  const started = Date.now();
  const found = await plausibleOf(bug);
  if (typeof found === 'string') {
    console.log(`${bug.id}: not measured: ${found.split('\n')[0]}`);
    continue;
  }
  console.log(
    `${bug.id}: ${found.plausible.length} plausible of ${found.validated} validated (${found.candidates} candidates, ${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  for (const candidate of found.plausible) {
    const correct = await passesHiddenTests(bug, candidate.patch, TEST_TIMEOUT_MS);
    const seen: ProductView = levels
      ? await runPatchThroughProduct(materialize(bug.project, 'overfit-assess'), bug.test, candidate.patch)
      : { status: 'tests_green', level: '–', reason: '', assessMs: 0, runMs: 0 };
    const rivals = found.plausible.filter((p) => p !== candidate && p.file === candidate.file && p.line === candidate.line);
    const withRivals = levels && rivals.length > 0 ? await levelWithRivals(bug, candidate, rivals, found.failing) : seen.level;
    const row: Row = {
      bug: bug.id,
      rank: candidate.rank,
      correct,
      description: candidate.description,
      ...seen,
      rivals: rivals.length,
      levelWithRivals: withRivals,
    };
    rows.push(row);
    if (resultsFile)
      appendFileSync(resultsFile, `${JSON.stringify({ ...row, template: candidate.template, patch: candidate.patch })}\n`);
    console.log(
      `    #${candidate.rank} (${candidate.template}): ${correct ? 'correct' : 'INCORRECT'}, ${row.status}, ${row.level}, with ${rivals.length} rivals ${withRivals}: ${candidate.description}${row.examples?.length ? `\n      ${row.examples.join('\n      ')}` : ''}`,
    );
  }
}

const green = rows.filter((r) => r.status === 'tests_green');
const wrong = green.filter((r) => !r.correct);
const right = green.filter((r) => r.correct);
console.log(`\nbugs: ${bugs.length}, with a plausible candidate ${new Set(green.map((r) => r.bug)).size}`);
const judged = `plausible candidates: ${rows.length}; incorrect ${wrong.length}, correct ${right.length}`;
if (!levels) console.log(judged);
else {
  const atVerified = (list: Row[], level: (r: Row) => string) => list.filter((r) => level(r) === 'verified').length;
  console.log(`${judged} (green through the product ${green.length} of ${rows.length})`);
  console.log(
    `verified alone: incorrect ${atVerified(wrong, (r) => r.level)} of ${wrong.length}, correct ${atVerified(right, (r) => r.level)} of ${right.length}`,
  );
  console.log(
    `verified with their rivals as alternatives: incorrect ${atVerified(wrong, (r) => r.levelWithRivals)} of ${wrong.length}, correct ${atVerified(right, (r) => r.levelWithRivals)} of ${right.length}`,
  );
  console.log(
    `incorrect at verified alone: ${
      wrong
        .filter((r) => r.level === 'verified')
        .map((r) => `${r.bug} #${r.rank} ${r.description}`)
        .join('; ') || 'none'
    }`,
  );
}
console.log(`command: node bench/overfit-written.ts ${args.join(' ')}`.trimEnd());

/** The product's level now for each plausible candidate of a former run, beside the levels that run saw. */
async function relevelFrom(file: string): Promise<void> {
  const former = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Row & { patch: string });
  const byId = new Map(bugs.map((b) => [b.id, b]));
  const now: Array<{ row: Row; level: string; assessMs: number }> = [];
  for (const row of former) {
    const bug = byId.get(row.bug);
    if (!bug) continue;
    const seen = await runPatchThroughProduct(materialize(bug.project, 'overfit-relevel'), bug.test, row.patch);
    now.push({ row, level: seen.status === 'tests_green' ? seen.level : seen.status, assessMs: seen.assessMs });
    if (resultsFile) appendFileSync(resultsFile, `${JSON.stringify({ ...row, ...seen, formerLevel: row.level })}\n`);
    console.log(
      `${row.bug} #${row.rank}: ${row.correct ? 'correct' : 'INCORRECT'}, was ${row.level} (with rivals ${row.levelWithRivals}), now ${seen.status} ${seen.level} in ${(seen.assessMs / 1000).toFixed(1)} s: ${row.description}\n    ${seen.reason}`,
    );
  }
  const count = (correct: boolean, level: (x: (typeof now)[number]) => string) =>
    `${now.filter((x) => x.row.correct === correct && level(x) === 'verified').length} of ${now.filter((x) => x.row.correct === correct).length}`;
  console.log(
    `\nverified: incorrect ${count(false, (x) => x.level)} now (${count(false, (x) => x.row.level)} then alone, ${count(false, (x) => x.row.levelWithRivals)} with rivals); correct ${count(true, (x) => x.level)} now (${count(true, (x) => x.row.level)}, ${count(true, (x) => x.row.levelWithRivals)})`,
  );
  const median = (ms: number[]) => `${((ms.sort((a, b) => a - b)[Math.floor((ms.length - 1) / 2)] ?? 0) / 1000).toFixed(1)} s`;
  console.log(
    `the assessment's median time: ${median(now.map((x) => x.assessMs))} now, ${median(now.map((x) => x.row.assessMs))} then`,
  );
  console.log(`command: node bench/overfit-written.ts ${args.join(' ')}`.trimEnd());
}
