// The assessment on known plausible patches of the real corpus: every bug's upstream fix (correct by
// definition) and every other plausible patch the repair engine produced and a person judged (kept
// in bench/real-results.jsonl, judged in the bug's meta.json). Each patch is applied by the `script`
// engine in a real `fixloop run` (setup, baseline, gate, pristine replay, the assessment), so what is
// measured is the product's own path for any engine. Reports, per patch: its correctness, the level
// the run ends at, the reason, and the assessment's time against the run's.
// Run: node bench/assess-known.ts [--filter a,b] [--results <file>] [--write]
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { args, flag } from './lib/args.ts';
import { judgeCorrect } from './lib/real-judge.ts';
import { loadRealCorpus, materializeReal, patchHash, type RealBug } from './lib/real-corpus.ts';
import { readResults } from './lib/real-results.ts';
import { median } from './lib/stats.ts';
import { materialize, printedResult, timed } from './lib/workdir.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const filters = (flag('--filter') ?? '').split(',');
const resultsFile = flag('--results');
const write = args.includes('--write');
const cacheDir = process.env.FIXLOOP_CACHE_DIR ?? join(tmpdir(), 'fixloop-real-cache', 'fixloop');
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();

interface Measured {
  bug: string;
  source: 'upstream' | 'engine';
  hash: string;
  correct: 'yes' | 'no' | 'unjudged';
  status: string;
  level: string;
  reason: string;
  assessMs: number;
  runMs: number;
  commit: string;
  /** The first changes outside the failing tests, as `input: before → after`. */
  examples?: string[];
}

/** The patches to measure for a bug: its upstream fix, and the plausible ones the engine produced. */
function patchesOf(bug: RealBug, kept: Map<string, { patch?: string | undefined }>): Array<{ source: Measured['source']; patch: string }> {
  const out: Array<{ source: Measured['source']; patch: string }> = [{ source: 'upstream', patch: readFileSync(join(bug.dir, 'fix.patch'), 'utf8') }];
  const engine = kept.get(bug.id)?.patch;
  if (engine) out.push({ source: 'engine', patch: engine });
  return out;
}

async function measure(bug: RealBug, source: Measured['source'], patch: string): Promise<Measured> {
  const project = materializeReal(bug, 'assess');
  const out = materialize({}, 'assess-out');
  try {
    // The script engine applies the patch in the workspace, as any engine's edit.
    const script = `git apply --whitespace=nowarn - <<'FIXLOOP_PATCH_END'\n${patch.trimEnd()}\nFIXLOOP_PATCH_END`;
    const command = [join(root, 'bin/fixloop.js'), 'run', project, '--test', bug.test, '--engine', 'script', '--script', script, '--max-attempts', '1', '--json', '--out', join(out, 'artifacts')];
    if (bug.setup) command.push('--setup', bug.setup);
    const run = await timed(process.execPath, command, out, 1_800_000, { FIXLOOP_CACHE_DIR: cacheDir });
    const result = printedResult(run.stdout);
    return {
      bug: bug.id,
      source,
      hash: patchHash(patch),
      correct: source === 'upstream' ? 'yes' : judgeCorrect(bug, patch),
      status: result?.status ?? `crashed (exit ${run.code})`,
      level: result?.assessment?.level ?? '–',
      reason: (result?.assessment?.reason ?? result?.headline ?? run.stderr.trim().split('\n').at(-1) ?? '').replace(/\s+/g, ' ').slice(0, 220),
      assessMs: result?.assessment?.budget.usedMs ?? 0,
      examples: (result?.assessment?.behaviourChanges ?? []).filter((c) => !c.nearFailing).slice(0, 3).map((c) => `${c.input}: ${c.before} → ${c.after}`.slice(0, 160)),
      runMs: result?.durationMs ?? run.ms,
      commit,
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

function readMeasured(file: string | undefined): Measured[] {
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Measured);
}

function table(rows: Measured[]): string {
  const green = rows.filter((r) => r.status === 'tests_green');
  const correct = green.filter((r) => r.correct === 'yes');
  const incorrect = green.filter((r) => r.correct === 'no');
  const pct = (n: number, d: number) => (d === 0 ? '–' : `${n} of ${d} (${Math.round((100 * n) / d)} %)`);
  const ratio = median(green.map((r) => r.assessMs / Math.max(1, r.runMs - r.assessMs)));
  const cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU';
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu} (${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB), fixloop at ${[...new Set(rows.map((r) => r.commit))].join(', ')}, with \`node bench/assess-known.ts${args.length ? ` ${args.join(' ')}` : ''}\`.`,
    '',
    `- correct patches that stay \`verified\`: ${pct(correct.filter((r) => r.level === 'verified').length, correct.length)}`,
    `- incorrect patches that end \`review\`: ${pct(incorrect.filter((r) => r.level === 'review').length, incorrect.length)}`,
    `- median assessment time ${((median(green.map((r) => r.assessMs)) ?? 0) / 1000).toFixed(1)} s; median ratio to the rest of the run ${ratio === null ? '–' : `${Math.round(ratio * 100)} %`} (a script-engine run: no engine time, so this overstates the share in a repair run)`,
    '',
    '| Bug | Patch | Correct | Status | Level | Assessment (s) | Run (s) | Reason |',
    '| --- | --- | :---: | --- | --- | ---: | ---: | --- |',
    ...rows.map((r) => `| ${r.bug} | ${r.source} \`${r.hash.slice(0, 8)}\` | ${r.correct} | ${r.status} | ${r.level} | ${(r.assessMs / 1000).toFixed(1)} | ${(r.runMs / 1000).toFixed(1)} | ${[r.reason, ...(r.examples ?? []).map((e) => `\`${e}\``)].join('; ').replace(/\|/g, '\\|')} |`),
  ].join('\n');
}

const START = '<!-- assess-known:start (generated by `node bench/assess-known.ts --write`) -->';
const END = '<!-- assess-known:end -->';

const kept = resultsFile ? readMeasured(resultsFile) : [];
const engineKept = readResults(join(root, 'bench/real-results.jsonl'));
const rows: Measured[] = [...kept];
for (const bug of loadRealCorpus(join(root, 'bench/real')).filter((b) => filters.some((f) => b.id.includes(f)))) {
  for (const { source, patch } of patchesOf(bug, engineKept)) {
    if (kept.some((k) => k.bug === bug.id && k.hash === patchHash(patch))) continue;
    const row = await measure(bug, source, patch);
    rows.push(row);
    if (resultsFile) appendFileSync(resultsFile, `${JSON.stringify(row)}\n`);
    console.log(`${row.bug.padEnd(14)} ${row.source.padEnd(8)} correct:${row.correct.padEnd(9)} ${row.status.padEnd(12)} ${row.level.padEnd(8)} ${(row.assessMs / 1000).toFixed(1)} s / ${(row.runMs / 1000).toFixed(1)} s  ${row.reason.slice(0, 120)}`);
    for (const example of row.examples ?? []) console.log(`    ${example}`);
  }
}
const text = table(rows);
console.log(`\n${text}`);
if (write) {
  const docs = join(root, 'docs/benchmarks.md');
  const current = readFileSync(docs, 'utf8');
  const section = `${START}\n${text}\n${END}`;
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  writeFileSync(docs, start >= 0 && end >= 0 ? `${current.slice(0, start)}${section}${current.slice(end + END.length)}` : `${current.trimEnd()}\n\n## The assessment on known plausible patches\n\n${section}\n`);
}
