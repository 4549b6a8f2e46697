// The runtime guard's cost (docs/design.md §3.2.7): the suite of each Python project of the real-bug
// corpus (its upstream fix applied, so that every test runs to its end), plus a generated project of
// 200 small tests, run by the gate with and without pytest's guard, in turn, `--runs` times each
// (default 5). Prints the median duration of each, the overhead, and the events the guarded runs'
// records hold (an honest suite has none). Run:
//   node bench/guard-overhead.ts [--runs 5] [--half tuning|held-out]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runGate } from '../src/gate/run-gate.ts';
import { createProcessSandbox } from '../src/sandbox/process-sandbox.ts';
import { flag } from './lib/args.ts';
import { materializeReal } from './lib/real-corpus.ts';
import { loadRealHalf } from './lib/real-split.ts';
import { reportUnbuilt } from './lib/real-unbuilt.ts';
import { median } from './lib/stats.ts';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const sandbox = createProcessSandbox();
const ENV = { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' };

function generated(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixloop-guard-bench-'));
  mkdirSync(join(dir, 'tests'));
  writeFileSync(join(dir, 'calc.py'), 'def add(a, b):\n    return a + b\n');
  for (let f = 0; f < 10; f++) {
    const tests = Array.from({ length: 20 }, (_, i) => `def test_add_${i}():\n    assert add(${i}, ${f}) == ${i + f}\n`).join(
      '\n\n',
    );
    writeFileSync(join(dir, 'tests', `test_calc_${f}.py`), `from calc import add\n\n\n${tests}`);
  }
  return dir;
}

async function measure(label: string, cwd: string, command: string): Promise<void> {
  const plain: number[] = [];
  const guarded: number[] = [];
  let tests = 0;
  /** What the guarded runs' records say the code did: an honest suite has nothing. */
  const events = new Set<string>();
  for (let i = 0; i < RUNS; i++) {
    const without = await runGate(sandbox, { command, cwd, timeoutMs: 600_000, witness: true, env: ENV, withoutGuard: true });
    const withGuard = await runGate(sandbox, {
      command,
      cwd,
      timeoutMs: 600_000,
      witness: true,
      env: ENV,
      guard: { testFiles: [] },
    });
    const records = withGuard.report.guard?.records ?? [];
    if (records.length !== 1 || !records[0]?.complete) throw new Error(`${label}: the guard left no complete record`);
    for (const e of records[0].events) events.add(`${e.kind} ${e.file ?? '?'}:${e.line ?? '?'} ${e.detail}`);
    plain.push(without.durationMs);
    guarded.push(withGuard.durationMs);
    tests = withGuard.report.total;
  }
  const a = median(plain) ?? 0;
  const b = median(guarded) ?? 0;
  const seen = events.size === 0 ? 'none' : [...events].join('; ');
  console.log(`| ${label} | ${tests} | ${a} | ${b} | ${(((b - a) / a) * 100).toFixed(1)} % | ${seen} |`);
}

// Only pytest suites are measured; a bug this checkout lacks could be one.
reportUnbuilt(resolve(import.meta.dirname, 'real'), {
  half: flag('--half'),
  match: (b) => b.recipe === undefined || b.recipe.runner === 'pytest',
});
console.log(`| Suite | Tests | Without the guard (ms, median of ${RUNS}) | With it | Overhead | Events |`);
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
const seen = new Set<string>();
for (const bug of loadRealHalf(resolve(import.meta.dirname, 'real'), flag('--half'))) {
  if (bug.runner !== 'pytest' || seen.has(bug.project)) continue;
  seen.add(bug.project);
  const dir = materializeReal(bug, 'guard', true);
  try {
    await measure(`${bug.id} (${bug.project})`, dir, bug.test);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const dir = generated();
try {
  await measure('generated: 200 tests in 10 files', dir, 'python3 -m pytest -q');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
