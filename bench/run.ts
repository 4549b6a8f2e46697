// The repair engine's benchmark: runs `fixloop run` on every bug of bench/corpus and reports the
// plausible and correct fix rates, R = time to verified green ÷ one full suite run, test executions,
// candidates and patch sizes.  Run: npm run bench [-- --filter <substring>] [--limit N] [--write]
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultRepoConfig } from '../src/core/repo-config.ts';
import { loadCorpus, type Bug } from './lib/corpus.ts';
import { median, percentile, rate } from './lib/stats.ts';
import { materialize, printedResult, shell, timed } from './lib/workdir.ts';
import { passesHiddenTests } from './lib/hidden-judge.ts';
import { args, flag } from './lib/args.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const filter = flag('--filter') ?? '';
const limit = Number(flag('--limit') ?? Infinity);
const write = args.includes('--write');
/** Above the run's own bound (`loop.timeBudget`, then its replay and report): see run-real.ts. */
const FIX_TIMEOUT_MS = (defaultRepoConfig().loop.timeBudget + 600) * 1000;

interface Outcome {
  bug: Bug;
  status: string;
  plausible: boolean;
  correct: boolean;
  suiteMs: number;
  fixMs: number;
  r: number | null;
  testExecutions: number;
  candidates: number;
  patchLines: number;
  summary: string;
  /** The assessment's level of a plausible patch (verified | review), and its time. */
  level: string;
  assessMs: number;
}

async function suiteTime(bug: Bug): Promise<number> {
  const dir = materialize(bug.project, 'suite');
  try {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) times.push((await shell(bug.test, dir)).ms);
    return median(times) ?? 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runBug(bug: Bug): Promise<Outcome> {
  const suiteMs = await suiteTime(bug);
  const project = materialize(bug.project, 'fix');
  const out = materialize({}, 'out');
  try {
    const run = await timed(
      process.execPath,
      [join(root, 'bin/fixloop.js'), 'run', project, '--test', bug.test, '--json', '--out', join(out, 'artifacts')],
      out,
      FIX_TIMEOUT_MS,
    );
    const result = printedResult(run.stdout);
    const status = result?.status ?? `crashed (exit ${run.code})`;
    const plausible = status === 'tests_green';
    const correct = plausible && result ? await passesHiddenTests(bug, result.patch) : false;
    const attempts = result?.attempts ?? [];
    // The loop's own runs: the baseline, one gate per attempt that reached it, and the replay.
    const loopRuns = 1 + attempts.filter((a) => a.gate).length + (result?.verification?.replayed ? 1 : 0);
    const engineRuns = attempts.reduce((n, a) => n + (a.engineStats.testExecutions ?? 0), 0);
    return {
      bug,
      status,
      plausible,
      correct,
      suiteMs,
      fixMs: run.ms,
      r: plausible && suiteMs > 0 ? run.ms / suiteMs : null,
      testExecutions: loopRuns + engineRuns,
      candidates: attempts.reduce((n, a) => n + (a.engineStats.validated ?? 0), 0),
      patchLines: (result?.filesChanged ?? []).reduce((n, c) => n + c.added + c.removed, 0),
      summary: attempts
        .map((a) => a.summary)
        .join(' / ')
        .slice(0, 140),
      level: result?.assessment?.level ?? '–',
      assessMs: result?.assessment?.budget.usedMs ?? 0,
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

const fmt = (n: number | null, digits = 1) => (n === null ? '–' : n.toFixed(digits));

function summarize(outcomes: Outcome[], label: string): string {
  const fixable = outcomes.filter((o) => o.bug.category !== 'beyond-templates');
  const plausible = outcomes.filter((o) => o.plausible);
  const rs = plausible.map((o) => o.r).filter((r): r is number => r !== null);
  return `| ${label} | ${outcomes.length} | ${rate(plausible.length, outcomes.length)} | ${rate(outcomes.filter((o) => o.correct).length, outcomes.length)} | ${rate(fixable.filter((o) => o.plausible).length, fixable.length)} | ${fmt(median(rs))} | ${fmt(percentile(rs, 90))} | ${fmt(median(outcomes.map((o) => o.testExecutions)), 0)} | ${fmt(median(outcomes.map((o) => o.candidates)), 0)} | ${fmt(median(plausible.map((o) => o.patchLines)), 0)} |`;
}

/** The assessment against the hidden tests: plausible patches that are wrong should end `review`, right ones `verified`. */
function levelsLine(outcomes: Outcome[]): string {
  const plausible = outcomes.filter((o) => o.plausible);
  const wrong = plausible.filter((o) => !o.correct);
  const right = plausible.filter((o) => o.correct);
  const assessed = plausible.filter((o) => o.level !== '–');
  return `Assessment: of ${wrong.length} plausible patches the hidden tests reject, ${wrong.filter((o) => o.level === 'review').length} end \`review\`; of ${right.length} they accept, ${right.filter((o) => o.level === 'verified').length} stay \`verified\`; median assessment time ${fmt((median(assessed.map((o) => o.assessMs)) ?? 0) / 1000)} s.`;
}

function report(outcomes: Outcome[], command: string): string {
  const cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU';
  const head =
    '| Bugs | n | plausible | correct | plausible (fixable categories) | median R | p90 R | median test runs | median candidates | median patch lines |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';
  const groups = (key: (o: Outcome) => string) =>
    [...new Set(outcomes.map(key))].sort().map((k) =>
      summarize(
        outcomes.filter((o) => key(o) === k),
        k,
      ),
    );
  const beyond = outcomes.filter((o) => o.bug.category === 'beyond-templates');
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpu} (${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB), Node ${process.version}, with \`${command}\`.`,
    '',
    head,
    summarize(outcomes, '**all**'),
    ...groups((o) => o.bug.language),
    ...groups((o) => o.bug.category),
    '',
    `Bugs beyond the templates: ${beyond.length}; time to give up: median ${fmt((median(beyond.map((o) => o.fixMs)) ?? 0) / 1000)} s, max ${fmt(Math.max(0, ...beyond.map((o) => o.fixMs)) / 1000)} s; wrongly "fixed": ${beyond.filter((o) => o.plausible).length}.`,
    levelsLine(outcomes),
    '',
    '| Bug | Category | Status | Correct | Level | Suite (s) | Fix (s) | R | Test runs | Candidates | Patch lines | What the engine did |',
    '| --- | --- | --- | :---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...outcomes.map(
      (o) =>
        `| ${o.bug.id} | ${o.bug.category} | ${o.status} | ${o.correct ? 'yes' : o.plausible ? 'no' : '–'} | ${o.level} | ${fmt(o.suiteMs / 1000, 2)} | ${fmt(o.fixMs / 1000)} | ${fmt(o.r)} | ${o.testExecutions} | ${o.candidates} | ${o.patchLines || '–'} | ${o.summary.replace(/\|/g, '\\|')} |`,
    ),
  ];
  return lines.join('\n');
}

const START = '<!-- repair-benchmark:start (generated by `npm run bench -- --write`) -->';
const END = '<!-- repair-benchmark:end -->';

const bugs = loadCorpus(join(root, 'bench/corpus'))
  .filter((b) => b.id.includes(filter))
  .slice(0, limit);
const outcomes: Outcome[] = [];
for (const bug of bugs) {
  const outcome = await runBug(bug);
  outcomes.push(outcome);
  console.log(
    `${outcome.correct ? 'correct  ' : outcome.plausible ? 'plausible' : 'not fixed'} ${bug.id.padEnd(36)} ${fmt(outcome.fixMs / 1000).padStart(6)} s  R=${fmt(outcome.r)}  ${outcome.summary.slice(0, 80)}`,
  );
}
const command = `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
const text = report(outcomes, command);
console.log(`\n${text}`);
if (write) {
  const docs = join(root, 'docs/benchmarks.md');
  const current = readFileSync(docs, 'utf8');
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  if (start < 0 || end < 0) throw new Error('docs/benchmarks.md has lost its benchmark markers');
  writeFileSync(docs, `${current.slice(0, start)}${START}\n${text}\n${current.slice(end)}`);
  console.log(`\nwrote ${docs}`);
}
