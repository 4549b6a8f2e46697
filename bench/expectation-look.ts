// The judge's look at whether the fixed tests can fail (src/verify/changed-expectations.ts), on the
// real corpus: each bug's upstream fix through a real `fixloop run` (the script engine applies it; no
// assessment). An honest fix must stay green, so a finding there is a false one; and the look is
// worth only as much as it reaches, so the table counts the runs where it ran, and why it did not.
//   node bench/expectation-look.ts [--filter <ids, comma-separated>] [--half tuning|held-out] [--results <file.jsonl>]
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../src/core/run-result.ts';
import { flag } from './lib/args.ts';
import { materializeReal, type RealBug } from './lib/real-corpus.ts';
import { loadRealHalf } from './lib/real-split.ts';
import { reportUnbuilt } from './lib/real-unbuilt.ts';
import { materialize, printedResult, timed } from './lib/workdir.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const realDir = join(root, 'bench', 'real');
const cacheDir = process.env.FIXLOOP_CACHE_DIR ?? join(tmpdir(), 'fixloop-real-cache', 'fixloop');
const filter = flag('--filter')?.split(',');
const results = flag('--results');

interface Seen {
  bug: string;
  runner: string;
  status: string;
  findings: string[];
  /** Fixed tests the look ran with their expected values changed (0: not checked or not reached). */
  ran: number;
  notChecked?: string;
  /** The look was made (a green replay whose fixed tests the runner can select), checked or not. */
  reached: boolean;
  /** The copies' look: `ran N`, `not checked (why)`, or `not made`. */
  copies: string;
}

async function upstreamRun(bug: RealBug): Promise<Seen> {
  const project = materializeReal(bug, 'expect');
  const out = materialize({}, 'expect-out');
  try {
    writeFileSync(join(project, 'fixloop.yml'), 'assessment:\n  enabled: false\n');
    const patch = readFileSync(join(bug.dir, 'fix.patch'), 'utf8');
    const script = `git apply --whitespace=nowarn - <<'FIXLOOP_PATCH_END'\n${patch.endsWith('\n') ? patch : `${patch}\n`}FIXLOOP_PATCH_END`;
    const command = [join(root, 'bin/fixloop.js'), 'run', project, '--test', bug.test, '--engine', 'script', '--script', script];
    command.push('--max-attempts', '1', '--json', '--out', join(out, 'artifacts'));
    if (bug.setup) command.push('--setup', bug.setup);
    const run = await timed(process.execPath, command, out, 1_200_000, { FIXLOOP_CACHE_DIR: cacheDir });
    const result: RunResult | null = printedResult(run.stdout);
    const look = result?.verification?.alone?.expectations;
    const copies = result?.verification?.alone?.copied;
    return {
      bug: bug.id,
      runner: bug.runner,
      status: result?.status ?? `crashed (exit ${run.code})`,
      findings: (result?.verification?.findings ?? []).map((f) => `${f.kind}: ${f.message.slice(0, 200)}`),
      ran: look?.ran ?? 0,
      ...(look?.notChecked ? { notChecked: look.notChecked } : {}),
      reached: look !== undefined,
      // The copies' look (src/verify/copied-tests.ts): how many ran, or why none did.
      copies: copies ? (copies.notChecked ? `not checked (${copies.notChecked})` : `ran ${copies.ran}`) : 'not made',
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

const ignored = (s: Seen) => s.findings.some((f) => f.startsWith('expectation_ignored'));

reportUnbuilt(realDir, { half: flag('--half'), match: (bug) => !filter || filter.includes(bug.id) });
const bugs = loadRealHalf(realDir, flag('--half')).filter((bug) => !filter || filter.includes(bug.id));
const seen: Seen[] = [];
for (const bug of bugs) {
  const one = await upstreamRun(bug);
  seen.push(one);
  const look = one.ran > 0 ? `ran ${one.ran}` : one.reached ? `not checked (${one.notChecked ?? ''})` : 'not made';
  console.error(
    `${one.bug}: ${one.status}; look ${look}; copies ${one.copies}${one.findings.length > 0 ? `; ${one.findings.join(' | ')}` : ''}`,
  );
  if (results) appendFileSync(results, `${JSON.stringify(one)}\n`);
}
console.log(
  '| Runner | Upstream fixes | Green | expectation_ignored (false) | Look ran | Not checked | No look (green, no selection) | Not green, other cause |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const runner of [...new Set(seen.map((s) => s.runner))]) {
  const rows = seen.filter((s) => s.runner === runner);
  const count = (test: (s: Seen) => boolean) => rows.filter(test).length;
  console.log(
    `| ${runner} | ${rows.length} | ${count((s) => s.status === 'tests_green')} | ${count(ignored)} | ${count((s) => s.ran > 0)} | ${count((s) => s.reached && s.ran === 0 && !ignored(s))} | ${count((s) => !s.reached && s.status === 'tests_green')} | ${count((s) => s.status !== 'tests_green' && !ignored(s))} |`,
  );
}
