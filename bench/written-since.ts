// What the look from outside the runner spends finding the files the suite's runs wrote
// (src/assess/written-since.ts): one walk of a checkout, its dependencies included, statting every
// file. Run on a folder as it is (nothing counts as written when `--since` is the future): the walk's
// time is the same whatever it finds.
//   node bench/written-since.ts <folder> [--runs 5]
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { args, flag } from './lib/args.ts';
import { median } from './lib/stats.ts';
import { writtenSince } from '../src/assess/written-since.ts';

const folder = args[0];
if (!folder || folder.startsWith('--')) {
  console.error('usage: node bench/written-since.ts <folder> [--runs 5]');
  process.exit(2);
}
const runs = Number(flag('--runs') ?? 5);

async function countEntries(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  let count = entries.length;
  for (const entry of entries) if (entry.isDirectory()) count += await countEntries(join(dir, entry.name));
  return count;
}

const times: number[] = [];
for (let i = 0; i < runs; i += 1) {
  const started = performance.now();
  await writtenSince(folder, Date.now() + 60_000, new Set(['.git']));
  times.push(performance.now() - started);
}
console.log(
  `${folder}: ${await countEntries(folder)} entries; the walk's median of ${runs}: ${(median(times) ?? 0).toFixed(0)} ms`,
);
