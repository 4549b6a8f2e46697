// The CPU fixloop's own process spends on one guarded command's keys (src/runners/guard-key-pipe.ts):
// open the pipe, fill it (about 1,024 keys of 64 bytes), close it, read back what is left. Every
// sandboxed command of a run pays this once, so a run of ~40 commands pays it ~40 times.
// Run: node bench/key-pipe-cost.ts [--rounds 200]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openKeyPipe } from '../src/runners/guard-key-pipe.ts';
import { median } from './lib/stats.ts';

const at = process.argv.indexOf('--rounds');
const rounds = at >= 0 ? Number(process.argv[at + 1]) : 200;
const cpuMs: number[] = [];
for (let i = 0; i < rounds; i += 1) {
  const dir = mkdtempSync(join(tmpdir(), 'fixloop-key-bench-'));
  const start = process.cpuUsage();
  const pipe = openKeyPipe(dir);
  pipe.close();
  const used = process.cpuUsage(start);
  cpuMs.push((used.user + used.system) / 1000);
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${rounds} pipes: median ${(median(cpuMs) ?? 0).toFixed(2)} ms of CPU to open, fill and close one`);
