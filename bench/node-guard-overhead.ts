// What the Node runtime guard (src/runners/node-guard/) adds to a suite's time: the test command run
// N times without and N times with the guard (alternating, so a machine's load falls on both alike),
// the median wall time of each, and what the guarded runs' records say (their processes, the tests
// they saw end, any event: an honest suite has none). Run:
//   node bench/node-guard-overhead.ts <project folder> --test "<command>" --runner <id> [--runs N] [--list-tests]
// `--list-tests` hands the guard the project's test files as the judge hands it the baseline's (here:
// the files outside node_modules named as the guard names tests), so the guard also records what
// each of them is (device and inode) and compares every file opened with them.
// Prints a Markdown table row for docs/benchmarks.md: the median wall time and the median CPU time (user
// and system, of the whole command, from the shell's `times`), which a loaded machine disturbs less.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { median } from './lib/stats.ts';
import { args, flag } from './lib/args.ts';
import { RUNNER_VARIABLE_SOURCES, RUNNERS } from '../src/runners/registry.ts';
import type { GuardRecord } from '../src/core/guard-record.ts';

const project = args[0] ? resolve(args[0]) : undefined;
const test = flag('--test');
const runner = flag('--runner');
if (!project || !test || !runner) {
  console.error('usage: node bench/node-guard-overhead.ts <project folder> --test "<command>" --runner <id> [--runs N]');
  process.exit(2);
}
const runs = Number(flag('--runs') ?? 5);
/** The guard's names for test files (src/runners/node-guard/guard-caller.cjs's). */
const TEST_NAME = /(^|\/)(tests?|__tests__|specs?)\/|[._-](test|spec)\.[cm]?[jt]sx?$|(^|\/)test\.[cm]?[jt]sx?$/;
const testFiles = args.includes('--list-tests')
  ? readdirSync(project, { recursive: true, encoding: 'utf8' }).filter(
      (f) => !f.split('/').includes('node_modules') && /\.[cm]?[jt]sx?$/.test(f) && TEST_NAME.test(f),
    )
  : [];
// The project runs on this Node (fixloop's), first on PATH as in the sandbox.
const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` } as Record<string, string>;

/** One run of the test command, guarded or not: its wall time, and the guard's records. */
async function once(guard: boolean): Promise<{ seconds: number; cpu: number; records: GuardRecord[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'fixloop-bench-guard-'));
  // The folders the gate gives the guard (src/gate/runtime-guard.ts): its code's and its records'.
  const dirs = { code: join(dir, 'code'), records: join(dir, 'records') };
  const nodeGuard = RUNNERS.find((r) => r.id === runner)?.guard;
  if (!nodeGuard) throw new Error(`${runner ?? ''}: no runtime guard`);
  try {
    for (const folder of Object.values(dirs)) mkdirSync(folder);
    const context = {
      command: test ?? '',
      env,
      packageScripts: {},
      root: project ?? '',
      testFiles,
      runnerVariables: RUNNER_VARIABLE_SOURCES,
    };
    const asked = guard ? await nodeGuard.ask(context, dirs) : null;
    const started = performance.now();
    // The shell's `times`: the CPU its children (the whole test command) used, user and system.
    const child = spawnSync('sh', ['-c', `{ ${test ?? ''} ; } >/dev/null 2>&1; times`], {
      cwd: project,
      env: { ...env, ...asked?.env },
      encoding: 'utf8',
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = [...(child.stdout.trim().split('\n').at(-1) ?? '').matchAll(/(\d+)m([\d.]+)s/g)].reduce(
      (sum, m) => sum + Number(m[1]) * 60 + Number(m[2]),
      0,
    );
    return { seconds, cpu, records: await nodeGuard.read(dirs) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const plain = { wall: [] as number[], cpu: [] as number[] };
const guarded = { wall: [] as number[], cpu: [] as number[] };
let last: GuardRecord[] = [];
for (let n = 0; n < runs; n++) {
  const bare = await once(false);
  plain.wall.push(bare.seconds);
  plain.cpu.push(bare.cpu);
  const run = await once(true);
  guarded.wall.push(run.seconds);
  guarded.cpu.push(run.cpu);
  last = run.records;
}
const p = median(plain.wall) ?? 0;
const g = median(guarded.wall) ?? 0;
const pc = median(plain.cpu) ?? 0;
const gc = median(guarded.cpu) ?? 0;
const tests = last.reduce((sum, r) => sum + (r.tests ? r.tests.passed + r.tests.failed + r.tests.skipped : 0), 0);
const events = last.flatMap((r) => r.events.map((e) => `${e.kind} ${e.file ?? '?'}:${e.line ?? '?'} ${e.detail}`));
console.log(
  `| ${runner} | \`${test}\` | ${tests} | ${p.toFixed(2)} s | ${g.toFixed(2)} s | ${(((g - p) / p) * 100).toFixed(1)} % | ${pc.toFixed(2)} s | ${gc.toFixed(2)} s | ${(((gc - pc) / pc) * 100).toFixed(1)} % | ${last.length} (${last.filter((r) => r.complete).length} complete) | ${events.length === 0 ? 'none' : events.join('; ')} |`,
);
