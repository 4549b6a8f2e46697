// Repeat runs of one repository reuse its installs (issue "Real repositories"): `fixloop run` on the
// same repository N times with a fresh dependency cache, timing each whole process and its phases.
// The first run fills the cache; the later ones should skip the install. Run:
//   node bench/install-reuse.ts <repo> --test "<command>" --setup "<command>" [--script "<command>"] [--runs N]
// Prints a Markdown table for docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './lib/stats.ts';
import { args, flag } from './lib/args.ts';

const repo = args[0];
const test = flag('--test');
const setup = flag('--setup');
if (!repo || !test || !setup) {
  console.error(
    'usage: node bench/install-reuse.ts <repo> --test "<command>" --setup "<command>" [--script "<command>"] [--runs N]',
  );
  process.exit(2);
}
const runs = Number(flag('--runs') ?? 4);
const script = flag('--script');
const work = mkdtempSync(join(tmpdir(), 'fixloop-bench-reuse-'));
const bin = resolve(import.meta.dirname, '..', 'bin', 'fixloop.js');

interface Measured {
  wallS: number;
  status: string;
  setupS: number;
  reused: boolean;
}

function once(n: number): Measured {
  const out = join(work, `run-${n}`);
  const engine = script ? ['--engine', 'script', '--script', script] : [];
  const started = Date.now();
  const child = spawnSync(
    process.execPath,
    [bin, 'run', repo ?? '', '--test', test ?? '', '--setup', setup ?? '', ...engine, '--json', '--out', out],
    { encoding: 'utf8', env: { ...process.env, FIXLOOP_CACHE_DIR: join(work, 'cache') }, maxBuffer: 64 * 1024 * 1024 },
  );
  const wallS = (Date.now() - started) / 1000;
  const result = JSON.parse(child.stdout) as { status: string; startedAt: string; events: Array<{ at: string; kind: string }> };
  const at = (kind: string) => Date.parse(result.events.find((e) => e.kind === kind)?.at ?? result.startedAt);
  const reused = readFileSync(join(out, 'setup.log'), 'utf8').match(/not run: node_modules (copied|linked)/) !== null;
  return { wallS, status: result.status, setupS: (at('baseline') - at('setup')) / 1000, reused };
}

try {
  const measured = Array.from({ length: runs }, (_, i) => once(i + 1));
  const first = measured[0];
  const later = measured.slice(1);
  const laterWall = median(later.map((m) => m.wallS)) ?? 0;
  console.log('| Run | Status | Wall (s) | Setup (s) | Install reused |\n| ---: | --- | ---: | ---: | :---: |');
  measured.forEach((m, i) =>
    console.log(`| ${i + 1} | ${m.status} | ${m.wallS.toFixed(1)} | ${m.setupS.toFixed(1)} | ${m.reused ? 'yes' : 'no'} |`),
  );
  if (first)
    console.log(
      `\nLater runs: median ${laterWall.toFixed(1)} s = ${((100 * laterWall) / first.wallS).toFixed(0)} % of the first run's ${first.wallS.toFixed(1)} s.`,
    );
} finally {
  rmSync(work, { recursive: true, force: true });
}
