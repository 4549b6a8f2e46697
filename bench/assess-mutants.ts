// The assessment measured against wrong patches (issue 47, items 2 and 7): every upstream fix and
// every kept mutant of the bugs asked (bench/mutant-patches.ts made them; bench/real/<id>/mutants/)
// through the product's own path (known-patch-run.ts: a real `fixloop run` with the `script`
// engine), then the figures of the issue's "Done when". A kept mutant is wrong by construction: it
// passes the whole suite and an input shows it different from the upstream fix (found by the
// assessment, or, kept by separation, by a hand-written program: bench/mutant-separate.ts). Only
// kept mutants are measured: those still unjudged or equivalent are not wrong patches shown.
// Run: node bench/assess-mutants.ts [--half tuning|held-out] [--filter a,b] [--results <file.jsonl>] [--upstream]
// (--upstream: the upstream fixes alone, to see that right fixes keep their level after a change.)
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { args, flag } from './lib/args.ts';
import { runKnownPatch } from './lib/known-patch-run.ts';
import { readMutants } from './lib/mutant-files.ts';
import { decisiveShown, figuresText, mutantFigures, type MutantRow } from './lib/mutant-figures.ts';
import { patchHash } from './lib/real-corpus.ts';
import { halfOf, loadRealHalf } from './lib/real-split.ts';
import { reportUnbuilt } from './lib/real-unbuilt.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const realDir = join(root, 'bench/real');
const filters = (flag('--filter') ?? '').split(',');
const resultsFile = flag('--results');
const match = (b: { id: string }) => filters.some((f) => b.id.includes(f));
const upstreamOnly = args.includes('--upstream');

const rows: MutantRow[] =
  resultsFile && existsSync(resultsFile)
    ? readFileSync(resultsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as MutantRow)
    : [];

function print(row: MutantRow): void {
  const shown =
    row.correct === 'no' && row.level === 'review'
      ? decisiveShown(row)
        ? ' decisive input shown'
        : ' decisive input NOT shown'
      : '';
  console.log(
    `${row.bug.padEnd(16)} ${row.source.slice(0, 40).padEnd(40)} ${row.status.padEnd(12)} ${row.level.padEnd(8)} ${(row.assessMs / 1000).toFixed(1).padStart(6)} s${row.blind ? ` (${row.blind})` : ''}${shown}  ${row.reason.slice(0, 100)}`,
  );
}

async function measure(row: () => Promise<MutantRow>, bug: string, hash: string): Promise<void> {
  if (rows.some((r) => r.bug === bug && r.hash === hash)) return;
  const measured = await row();
  rows.push(measured);
  if (resultsFile) appendFileSync(resultsFile, `${JSON.stringify(measured)}\n`);
  print(measured);
}

reportUnbuilt(realDir, { half: flag('--half'), match });
const bugs = loadRealHalf(realDir, flag('--half')).filter(match);
for (const bug of bugs) {
  const mutants = readMutants(bug.dir);
  if (!mutants && !upstreamOnly) {
    console.log(`${bug.id}: no mutants made here (node bench/mutant-patches.ts --filter ${bug.id}); skipped`);
    continue;
  }
  if (mutants && mutants.file.unjudged.length > 0 && !upstreamOnly)
    console.log(
      `${bug.id}: ${mutants.file.unjudged.length} mutants unjudged (node bench/mutant-separate.ts --filter ${bug.id}); not measured`,
    );
  const fix = readFileSync(join(bug.dir, 'fix.patch'), 'utf8');
  await measure(() => runKnownPatch(bug, 'upstream', fix), bug.id, patchHash(fix));
  for (const kept of upstreamOnly ? [] : (mutants?.file.kept ?? [])) {
    const patch = mutants?.patches.get(kept.hash) ?? '';
    // Wrong by construction (an input tells it from the upstream fix), whatever a hand judgement would say.
    await measure(
      async () => ({
        ...(await runKnownPatch(bug, `mutant ${kept.origin}: ${kept.description}`, patch)),
        hash: kept.hash,
        correct: 'no',
        separating: kept.inputs,
      }),
      bug.id,
      kept.hash,
    );
  }
}
// Only the bugs asked for, of the half asked for: a results file may hold others.
const measured = rows.filter((r) => bugs.some((b) => b.id === r.bug));
console.log(
  [
    '',
    `The ${halfOf(flag('--half'))} half: ${new Set(measured.map((r) => r.bug)).size} bugs, ${measured.filter((r) => r.correct === 'yes').length} upstream fixes and ${measured.filter((r) => r.correct === 'no').length} kept mutants, with \`node bench/assess-mutants.ts${args.length ? ` ${args.join(' ')}` : ''}\`:`,
    ...figuresText(mutantFigures(measured)),
  ].join('\n'),
);
