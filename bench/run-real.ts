// The repair engine on real bugs: runs `fixloop run` (embedded `repair` engine) on every bug of
// bench/real and reports plausible (tests_green), correct (the same source as the upstream fix, or a
// hand judgement recorded in meta.json), R (attempts until plausible), time, and why a run failed.
// Run: npm run bench:real [-- --filter <substring>[,<substring>...]] [--limit N] [--results <file>] [--write] [--half tuning|held-out]
// `--results <file>` keeps each bug's outcome as it comes (one JSON line per bug, with the commit that
// measured it); a later run with the same file skips the bugs it holds, so a corpus that takes longer
// than one sitting is measured in parts, and the table says which commits measured it.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../src/core/run-result.ts';
import { defaultRepoConfig } from '../src/core/repo-config.ts';
import { judgeCorrect } from './lib/real-judge.ts';
import { materializeReal, patchHash, type RealBug } from './lib/real-corpus.ts';
import { loadRealHalf } from './lib/real-split.ts';
import { reportUnbuilt } from './lib/real-unbuilt.ts';
import { appendResult, readResults, type StoredOutcome } from './lib/real-results.ts';
import { median, rate } from './lib/stats.ts';
import { materialize, printedResult, timed } from './lib/workdir.ts';
import { args, flag } from './lib/args.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const filter = flag('--filter') ?? '';
const limit = Number(flag('--limit') ?? Infinity);
const write = args.includes('--write');
const resultsFile = flag('--results');
/**
 * The run bounds itself (`loop.timeBudget`, then its replay and report): the benchmark's own limit
 * is only a guard above that, so a slow bug is measured as the run ends it, never cut as a crash (an
 * engine that goes on across attempts can use the run's whole budget).
 */
const FIX_TIMEOUT_MS = (defaultRepoConfig().loop.timeBudget + 600) * 1000;
// fixloop's own dependency cache: the second run of a bug reuses its install.
const cacheDir = process.env.FIXLOOP_CACHE_DIR ?? join(tmpdir(), 'fixloop-real-cache', 'fixloop');

/** A bug's outcome: what the results file keeps of it (real-results.ts), with the bug itself. */
type Outcome = Omit<StoredOutcome, 'id'> & { bug: RealBug };

function reasonOf(result: RunResult | null, stderr: string): string {
  if (!result) return stderr.trim().split('\n').slice(-2).join(' ').slice(0, 160) || 'no result';
  // The last attempt says how the run ended (an engine that went on across attempts ends there).
  const last = result.attempts.at(-1)?.summary;
  const attempts = result.attempts.length > 1 ? `${result.attempts.length} attempts, the last: ` : '';
  const said = [result.stopReason, last ? `${attempts}${last}` : null].filter(Boolean).join(' / ');
  return said.replace(/\s+/g, ' ').slice(0, 200);
}

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();

async function runBug(bug: RealBug): Promise<Outcome> {
  const project = materializeReal(bug, 'fix');
  const out = materialize({}, 'real-out');
  try {
    const command = [join(root, 'bin/fixloop.js'), 'run', project, '--test', bug.test, '--json', '--out', join(out, 'artifacts')];
    if (bug.setup) command.push('--setup', bug.setup);
    const run = await timed(process.execPath, command, out, FIX_TIMEOUT_MS, { FIXLOOP_CACHE_DIR: cacheDir });
    const result = printedResult(run.stdout);
    const status = result?.status ?? `crashed (exit ${run.code})`;
    const plausible = status === 'tests_green';
    const correct = plausible && result ? judgeCorrect(bug, result.patch ?? '') : 'no';
    return {
      bug,
      commit,
      status,
      plausible,
      correct,
      ...(plausible && correct !== 'yes' && result?.patch ? { patch: result.patch } : {}),
      ...(result?.assessment ? { level: result.assessment.level, assessMs: result.assessment.budget.usedMs } : {}),
      attempts: result?.attempts.length ?? 0,
      fixMs: run.ms,
      ...(result ? { runMs: result.durationMs } : {}),
      // Only a check that ran: a command the runner cannot narrow measures nothing (`notMeasured`).
      ...(result?.flakiness?.command ? { rerunsMs: result.flakiness.durationMs } : {}),
      reason: plausible ? '' : reasonOf(result, run.stderr),
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

const fmt = (n: number | null, digits = 1) => (n === null ? '–' : n.toFixed(digits));

function summarize(outcomes: Outcome[], label: string): string {
  const plausible = outcomes.filter((o) => o.plausible);
  const failed = outcomes.filter((o) => !o.plausible);
  const errors = outcomes.filter((o) => o.status === 'error' || o.status.startsWith('crashed')).length;
  return `| ${label} | ${outcomes.length} | ${rate(plausible.length, outcomes.length)} | ${rate(outcomes.filter((o) => o.correct === 'yes').length, outcomes.length)} | ${outcomes.filter((o) => o.correct === 'unjudged').length} | ${fmt(median(plausible.map((o) => o.attempts)), 0)} | ${fmt(failed.length > 0 ? (median(failed.map((o) => o.fixMs)) ?? 0) / 1000 : null)} | ${errors} |`;
}

function report(outcomes: Outcome[], command: string): string {
  const cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU';
  const groups = (key: (o: Outcome) => string) =>
    [...new Set(outcomes.map(key))].sort().map((k) =>
      summarize(
        outcomes.filter((o) => key(o) === k),
        k,
      ),
    );
  const commits = [...new Set(outcomes.map((o) => o.commit))].join(', ');
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu} (${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB), Node ${process.version}, fixloop at ${commits}, with \`${command}\`.`,
    '',
    '| Bugs | n | plausible | correct | unjudged | median R (attempts) | median time to give up (s) | runs ending in an error |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    summarize(outcomes, '**all**'),
    ...groups((o) => o.bug.language),
    ...groups((o) => o.bug.runner),
    '',
    rerunShare(outcomes),
    '',
    '| Bug | Project | Runner | Status | Correct | Level | R | Time (s) | Why not fixed |',
    '| --- | --- | --- | --- | :---: | --- | ---: | ---: | --- |',
    ...outcomes.map(
      (o) =>
        `| ${o.bug.id} | ${o.bug.project} | ${o.bug.runner} | ${o.status} | ${o.plausible ? o.correct : '–'} | ${o.level ? `${o.level} (${fmt((o.assessMs ?? 0) / 1000)} s)` : '–'} | ${o.plausible ? o.attempts : '–'} | ${fmt(o.fixMs / 1000)} | ${o.reason.replace(/\|/g, '\\|')} |`,
    ),
  ].join('\n');
}

/** What the flakiness check (the baseline run again, `loop.flakyReruns`) took of the runs that ran it. */
function rerunShare(outcomes: Outcome[]): string {
  const shares = outcomes.filter((o) => o.rerunsMs !== undefined && o.runMs).map((o) => (o.rerunsMs ?? 0) / (o.runMs ?? 1));
  if (shares.length === 0) return 'No run measured its flakiness check (`loop.flakyReruns`).';
  const pct = (x: number | null) => `${((x ?? 0) * 100).toFixed(1)} %`;
  return `The flakiness check (the baseline's failing tests, or a passing suite, run again: \`loop.flakyReruns\`) took a median ${pct(median(shares))} of a run's time, at most ${pct(Math.max(...shares))} (${shares.length} runs that ran it).`;
}

const START = '<!-- real-benchmark:start (generated by `npm run bench:real -- --write`) -->';
const END = '<!-- real-benchmark:end -->';

function writeDocs(text: string): void {
  const docs = join(root, 'docs/benchmarks.md');
  const current = readFileSync(docs, 'utf8');
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const section = `${START}\n${text}\n${END}`;
  const next =
    start >= 0 && end >= 0
      ? `${current.slice(0, start)}${section}${current.slice(end + END.length)}`
      : `${current.trimEnd()}\n\n## The repair engine on real bugs\n\n${section}\n`;
  writeFileSync(docs, next);
  console.log(`\nwrote ${docs}`);
}

// `--filter a,b`: the bugs whose id contains any of the parts.
const filters = filter.split(',');
reportUnbuilt(join(root, 'bench/real'), { half: flag('--half'), match: (b) => filters.some((f) => b.id.includes(f)) });
const bugs = loadRealHalf(join(root, 'bench/real'), flag('--half'))
  .filter((b) => filters.some((f) => b.id.includes(f)))
  .slice(0, limit);
const stored = resultsFile ? readResults(resultsFile) : new Map<string, StoredOutcome>();
const outcomes: Outcome[] = [];
for (const bug of bugs) {
  const kept = stored.get(bug.id);
  if (kept) {
    const { id: _id, ...rest } = kept;
    // A hand judgement recorded since the run decides a kept patch's correctness now.
    const correct = rest.plausible && rest.patch ? judgeCorrect(bug, rest.patch) : rest.correct;
    outcomes.push({ ...rest, correct, bug });
    console.log(`kept      ${bug.id.padEnd(16)} (measured at ${kept.commit}: ${kept.status})`);
    continue;
  }
  const outcome = await runBug(bug);
  outcomes.push(outcome);
  if (resultsFile) {
    const { bug: _bug, ...rest } = outcome;
    appendResult(resultsFile, { id: bug.id, ...rest });
  }
  const label = outcome.plausible
    ? outcome.correct === 'yes'
      ? 'correct  '
      : `plausible (correct: ${outcome.correct})`
    : 'not fixed';
  console.log(
    `${label} ${bug.id.padEnd(16)} ${fmt(outcome.fixMs / 1000).padStart(6)} s  ${outcome.status}  ${outcome.reason.slice(0, 100)}`,
  );
  if (outcome.patch)
    console.log(`  to judge by hand (hash ${patchHash(outcome.patch)}):\n${outcome.patch.replace(/^/gm, '    ')}`);
}
const text = report(outcomes, `npm run bench:real${args.length ? ` -- ${args.join(' ')}` : ''}`);
console.log(`\n${text}`);
if (write) writeDocs(text);
