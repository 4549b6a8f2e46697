// Checks every bug of the real corpus (bench/real): on the snapshot (the fix's parent plus the fix's
// tests) the recorded tests fail and nothing else does; with the upstream fix applied every test passes.
// Run: npm run bench:real:check [-- --filter <substring>[,<substring>...]] [--record]
// --record writes the failing tests it sees into meta.json (when building a bug), instead of comparing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, observe } from './lib/real-check.ts';
import { loadRealCorpus, type RealBug } from './lib/real-corpus.ts';
import { reportUnbuilt } from './lib/real-unbuilt.ts';

const realDir = fileURLToPath(new URL('./real', import.meta.url));
const args = process.argv.slice(2);
const filterAt = args.indexOf('--filter');
// Several comma-separated substrings select the bugs whose id holds any of them.
const filters = (filterAt >= 0 ? (args[filterAt + 1] ?? '') : '').split(',');
const record = args.includes('--record');

function recordFailing(bug: RealBug, failing: string[]): void {
  const path = join(bug.dir, 'meta.json');
  const meta = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  meta.failing = failing;
  writeFileSync(path, `${JSON.stringify(meta, null, 2)}\n`);
}

// Both halves: whether a bug is sound says nothing of how fixloop does on it.
reportUnbuilt(realDir, { bothHalves: true, match: (b) => filters.some((f) => b.id.includes(f)) });
const bugs = loadRealCorpus(realDir, record).filter((b) => filters.some((f) => b.id.includes(f)));
let problems = 0;
for (const bug of bugs) {
  const started = performance.now();
  const buggy = await observe(bug, false);
  const fixed = typeof buggy === 'string' ? buggy : await observe(bug, true);
  const errors =
    typeof buggy === 'string'
      ? [buggy]
      : typeof fixed === 'string'
        ? [fixed]
        : compare(buggy, fixed, record ? buggy.failed : bug.failing);
  if (record && errors.length === 0 && typeof buggy !== 'string') recordFailing(bug, [...new Set(buggy.failed)]);
  if (errors.length) problems++;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const failing = typeof buggy === 'string' ? '' : ` (${buggy.failed.length} failing: ${buggy.failed.join('; ').slice(0, 160)})`;
  console.log(
    `${errors.length ? 'FAIL' : 'ok  '} ${bug.id} ${seconds} s${failing}${errors.length ? `\n  ${errors.join('\n  ')}` : ''}`,
  );
}
console.log(`\n${bugs.length - problems} passed, ${problems} failed`);
process.exitCode = problems || bugs.length === 0 ? 1 : 0;
