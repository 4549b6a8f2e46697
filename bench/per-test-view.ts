// Where the per-test view comes from, on the real corpus, through a real `fixloop run` of each bug's
// upstream fix (the script engine applies it; no assessment): as the project runs its tests, and
// again with a quiet reporter (mocha's dot, jest --silent, vitest's dot, node's dot, pytest -qq
// --tb=no), which leaves the output no test names. A run has a per-test view when the judged
// baseline's view came from inside the test processes and the replay names as fixed (fail → pass)
// every test the bug's record says fails.
//   node bench/per-test-view.ts [--filter <ids, comma-separated>] [--half tuning|held-out] [--results <file.jsonl>]
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag } from './lib/args.ts';
import { materializeReal, type RealBug } from './lib/real-corpus.ts';
import { loadRealHalf } from './lib/real-split.ts';
import { reportUnbuilt } from './lib/real-unbuilt.ts';
import { materialize, printedResult, timed } from './lib/workdir.ts';
import { tmpdir } from 'node:os';

const root = fileURLToPath(new URL('..', import.meta.url));
const realDir = join(root, 'bench', 'real');
const cacheDir = process.env.FIXLOOP_CACHE_DIR ?? join(tmpdir(), 'fixloop-real-cache', 'fixloop');
const filter = flag('--filter')?.split(',');
const results = flag('--results');

/** A flag that leaves the runner's output without test names, and how to add it to the bug's command. */
const QUIET: Record<string, string> = {
  mocha: '--reporter dot',
  jest: '--silent --reporters=default',
  vitest: '--reporter=dot',
  'node-test': '--test-reporter=dot',
  pytest: '-qq --tb=no',
};

function quiet(bug: RealBug): string {
  const extra = QUIET[bug.runner] ?? '';
  // An npm script alone passes its arguments on after `--`; a command that ends in the runner takes them itself.
  return /^npm (test|run \S+)$/.test(bug.test) ? `${bug.test} -- ${extra}` : `${bug.test} ${extra}`;
}

interface Seen {
  bug: string;
  runner: string;
  variant: 'as-is' | 'quiet';
  view: string;
  named: boolean;
  status: string;
}

async function baselineOf(bug: RealBug, test: string, variant: Seen['variant']): Promise<Seen> {
  const project = materializeReal(bug, 'view');
  const out = materialize({}, 'view-out');
  try {
    writeFileSync(join(project, 'fixloop.yml'), 'assessment:\n  enabled: false\n');
    const patch = readFileSync(join(bug.dir, 'fix.patch'), 'utf8');
    const script = `git apply --whitespace=nowarn - <<'FIXLOOP_PATCH_END'\n${patch.endsWith('\n') ? patch : `${patch}\n`}FIXLOOP_PATCH_END`;
    const command = [join(root, 'bin/fixloop.js'), 'run', project, '--test', test, '--engine', 'script', '--script', script];
    command.push('--max-attempts', '1', '--json', '--out', join(out, 'artifacts'));
    if (bug.setup) command.push('--setup', bug.setup);
    const run = await timed(process.execPath, command, out, 1_200_000, { FIXLOOP_CACHE_DIR: cacheDir });
    const result = printedResult(run.stdout);
    const fixed = new Set(result?.verification?.failToPass ?? []);
    return {
      bug: bug.id,
      runner: bug.runner,
      variant,
      view: result?.verification?.baselineView ?? 'unknown',
      named: bug.failing.every((id) => fixed.has(id)),
      status: result?.status ?? `crashed (exit ${run.code})`,
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

// The tuning half unless --half held-out, as its usage says and as every script that runs fixloop on the corpus.
reportUnbuilt(realDir, { half: flag('--half'), match: (bug) => !filter || filter.includes(bug.id) });
const bugs = loadRealHalf(realDir, flag('--half')).filter((bug) => !filter || filter.includes(bug.id));
const seen: Seen[] = [];
for (const bug of bugs) {
  for (const [variant, test] of [
    ['as-is', bug.test],
    ['quiet', quiet(bug)],
  ] as const) {
    const one = await baselineOf(bug, test, variant);
    seen.push(one);
    console.error(`${one.bug} ${variant}: view ${one.view}, fixed tests named: ${one.named ? 'yes' : 'no'} (${one.status})`);
    if (results) appendFileSync(results, `${JSON.stringify(one)}\n`);
  }
}
console.log(
  '| Runner | Variant | Runs | Baseline view from inside | Every fixed test named |\n| --- | --- | ---: | ---: | ---: |',
);
for (const runner of [...new Set(seen.map((s) => s.runner))])
  for (const variant of ['as-is', 'quiet'] as const) {
    const rows = seen.filter((s) => s.runner === runner && s.variant === variant);
    const inside = rows.filter((s) => s.view === 'inside').length;
    const named = rows.filter((s) => s.named).length;
    console.log(`| ${runner} | ${variant} | ${rows.length} | ${inside} | ${named} |`);
  }
