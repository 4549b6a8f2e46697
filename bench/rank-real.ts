// Where the upstream fix of each real bug stands in the repair engine's own order, without
// validating a single candidate: the baseline run, fault localization (coverage included), candidate
// generation and ranking exactly as the engine does them, then the rank of the fixed line among the
// suspicious lines and the rank of the candidate that writes the upstream fix (its text, blank lines
// and trailing blanks aside, or a patch the bug's meta.json judges correct by hand) among the
// candidates. What `npm run bench:real` spends minutes to learn (is the fix reachable, and how far
// down), this says in seconds per bug, so template and ranking changes can be measured on the whole
// corpus.
// Run: node bench/rank-real.ts [--filter <id part>] [--json <file>] [--half tuning|held-out]
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realBaseline, realCandidates } from './lib/real-candidates.ts';
import { candidatePatchHash, materializeReal, type RealBug } from './lib/real-corpus.ts';
import { loadRealHalf } from './lib/real-split.ts';
import { reportUnbuilt } from './lib/real-unbuilt.ts';
import { flag } from './lib/args.ts';

const realDir = fileURLToPath(new URL('./real', import.meta.url));
const filter = flag('--filter') ?? '';
const jsonOut = flag('--json');
const verbose = process.argv.includes('--verbose');
const TEST_TIMEOUT_MS = 300_000;
/** The engine's default validation budget (repair.max_candidates). */
const BUDGET = 300;

export interface RankRow {
  id: string;
  runner: string;
  suspicious: number;
  /** Best rank (1-based) of a line the upstream fix changes, among the suspicious lines; null: not suspected. */
  faultRank: number | null;
  candidates: number;
  /** Rank of the candidate that writes the upstream fix; null: no candidate does. */
  fixRank: number | null;
  template: string | null;
  problems: string[];
}

/** Old-file line numbers the fix removes, or the line before each insertion when it only adds. */
function fixedLines(patch: string): { file: string; line: number }[] {
  const out: { file: string; line: number }[] = [];
  let file = '';
  let old = 0;
  for (const line of patch.split('\n')) {
    const header = /^--- a\/(.+)$/.exec(line);
    if (header?.[1]) file = header[1];
    const hunk = /^@@ -(\d+)/.exec(line);
    if (hunk?.[1]) old = Number(hunk[1]);
    else if (line.startsWith('-') && !line.startsWith('---')) out.push({ file, line: old++ });
    else if (line.startsWith('+') && !line.startsWith('+++')) out.push({ file, line: Math.max(1, old - 1) }, { file, line: old });
    else if (line.startsWith(' ')) old++;
  }
  return out;
}

const normalized = (text: string) => text.replace(/[ \t]+$/gm, '').replace(/\n{2,}/g, '\n');

async function rankBug(bug: RealBug): Promise<RankRow | string> {
  const dir = materializeReal(bug, 'rank');
  const fixedDir = materializeReal(bug, 'rank-fixed', true);
  try {
    const baseline = await realBaseline(bug, dir, TEST_TIMEOUT_MS);
    if (typeof baseline === 'string') return baseline;
    const failing = baseline.gate.report.tests.filter((t) => t.status === 'failed');
    const { suspicious, ranked, sources, problems } = await realCandidates(dir, baseline, bug.test);
    const fixLines = fixedLines(readFileSync(join(bug.dir, 'fix.patch'), 'utf8'));
    const faultIndex = suspicious.findIndex((s) => fixLines.some((f) => f.file === s.file && f.line === s.line));
    if (verbose) {
      const show = (s: (typeof suspicious)[number], i: number) =>
        `  ${i + 1}. ${s.file}:${s.line} ${s.score.toFixed(3)} ${s.signals.join('+')}`;
      console.log(
        `${bug.id}: ${failing.length} failing of ${baseline.gate.report.total}; top lines:\n${suspicious.slice(0, 8).map(show).join('\n')}`,
      );
      if (faultIndex >= 0 && suspicious[faultIndex])
        console.log(`  the fix's line: ${show(suspicious[faultIndex], faultIndex).trim()}`);
      else console.log(`  the fix's lines (${fixLines.map((f) => `${f.file}:${f.line}`).join(', ')}) are not suspected`);
    }

    const fixFiles = bug.referenceFix.files;
    // An equivalent fix written otherwise counts once it has been judged correct by hand (meta.json).
    const judgedCorrect = new Set(bug.judgements.filter((j) => j.correct).map((j) => j.patchHash));
    const fixIndex =
      fixFiles.length !== 1
        ? -1
        : ranked.findIndex(
            (c) =>
              c.file === fixFiles[0] &&
              (normalized(c.result) === normalized(readFileSync(join(fixedDir, c.file), 'utf8')) ||
                (judgedCorrect.size > 0 && judgedCorrect.has(candidatePatchHash(sources.get(c.file) ?? '', c.result)))),
          );
    return {
      id: bug.id,
      runner: bug.runner,
      suspicious: suspicious.length,
      faultRank: faultIndex >= 0 ? faultIndex + 1 : null,
      candidates: ranked.length,
      fixRank: fixIndex >= 0 ? fixIndex + 1 : null,
      template: fixIndex >= 0 ? (ranked[fixIndex]?.template ?? null) : null,
      problems,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(fixedDir, { recursive: true, force: true });
  }
}

const rows: RankRow[] = [];
reportUnbuilt(realDir, { half: flag('--half'), match: (b) => b.id.includes(filter) });
console.log('| Bug | Runner | Suspicious lines | Fault line rank | Candidates | Fix rank | Template |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | --- |');
for (const bug of loadRealHalf(realDir, flag('--half')).filter((b) => b.id.includes(filter))) {
  const row = await rankBug(bug);
  if (typeof row === 'string') {
    console.log(`| ${bug.id} | ${bug.runner} | setup failed: ${row.split('\n')[0]} |`);
    continue;
  }
  rows.push(row);
  const within = row.fixRank !== null && row.fixRank <= BUDGET ? '' : row.fixRank !== null ? ' (beyond the budget)' : '';
  console.log(
    `| ${row.id} | ${row.runner} | ${row.suspicious} | ${row.faultRank ?? '–'} | ${row.candidates} | ${row.fixRank ?? '–'}${within} | ${row.template ?? ''} |${row.problems.length ? ` ${row.problems.join('; ')}` : ''}`,
  );
}
const reachable = rows.filter((r) => r.fixRank !== null && r.fixRank <= BUDGET).length;
console.log(
  `\nThe upstream fix is among the first ${BUDGET} candidates for ${reachable} of ${rows.length} bugs; its line is suspected for ${rows.filter((r) => r.faultRank !== null).length}.`,
);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(rows, null, 2)}\n`);
