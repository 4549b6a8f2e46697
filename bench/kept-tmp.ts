// A test command run again and again in the bwrap sandbox, as the repair engine runs one candidate
// after another in a fork: each run with a private, empty /tmp (the default), then each with a /tmp
// kept from the run before (RunCommandOptions.tmpDir, what the engine's candidate runs get), where
// jest keeps its transforms and module map. Alternating, so a load on the machine hits both alike.
//   node bench/kept-tmp.ts <repo with its dependencies installed> --test "<command>" [--runs N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createBwrapSandbox } from '../src/sandbox/bwrap-sandbox.ts';
import { args, flag } from './lib/args.ts';
import { median } from './lib/stats.ts';

const repo = args[0];
const test = flag('--test');
if (!repo || !test) {
  console.error('usage: node bench/kept-tmp.ts <repo> --test "<command>" [--runs N]');
  process.exit(2);
}
const runs = Number(flag('--runs') ?? 10);
const sandbox = createBwrapSandbox();
const kept = mkdtempSync(join(tmpdir(), 'fixloop-bench-kept-tmp-'));

async function timed(tmpDir?: string): Promise<number> {
  const started = performance.now();
  await sandbox.run({ command: test ?? '', cwd: resolve(repo ?? '.'), timeoutMs: 300_000, ...(tmpDir ? { tmpDir } : {}) });
  return (performance.now() - started) / 1000;
}

try {
  await timed(kept); // fills the kept /tmp, as a fork's first candidate does
  const fresh: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) {
    fresh.push(await timed());
    warm.push(await timed(kept));
  }
  const f = median(fresh) ?? 0;
  const w = median(warm) ?? 0;
  console.log(`| ${test} | ${runs} | ${f.toFixed(2)} s | ${w.toFixed(2)} s | ${((w / f) * 100).toFixed(0)} % |`);
} finally {
  rmSync(kept, { recursive: true, force: true });
}
