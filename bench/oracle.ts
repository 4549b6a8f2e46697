// The upstream oracle (lib/upstream-oracle.ts) on patches already found: every plausible patch the
// engine kept in bench/real-results.jsonl that is not the upstream fix's own text, or one patch
// file for one bug. Prints, per patch, its hand judgement (meta.json) beside where it gives other
// results than the upstream fix.
// Run: node bench/oracle.ts [--filter a,b] [--half tuning|held-out] | node bench/oracle.ts --bug <id> --patch <file>
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag } from './lib/args.ts';
import { realBaseline } from './lib/real-candidates.ts';
import { materializeReal, patchHash, type RealBug } from './lib/real-corpus.ts';
import { loadRealHalf } from './lib/real-split.ts';
import { reportUnbuilt, unbuiltNotice } from './lib/real-unbuilt.ts';
import { judgeCorrect } from './lib/real-judge.ts';
import { readResults } from './lib/real-results.ts';
import { compareWithUpstream, oracleText } from './lib/upstream-oracle.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const realDir = join(root, 'bench/real');
const bugs = loadRealHalf(realDir, flag('--half'));
const filters = (flag('--filter') ?? '').split(',').filter(Boolean);
const oneBug = flag('--bug');
const onePatch = flag('--patch');

function patchesToJudge(): Array<{ bug: RealBug; patch: string }> {
  if (oneBug || onePatch) {
    const bug = bugs.find((b) => b.id === oneBug);
    if (!bug || !onePatch || !existsSync(onePatch)) {
      const why =
        !oneBug || !onePatch
          ? '--bug <id> and --patch <file> go together'
          : !bug
            ? (unbuiltNotice(realDir, { half: flag('--half'), match: (b) => b.id === oneBug })[0] ??
              `--bug: no bug ${oneBug} in bench/real`)
            : `--patch: no file ${onePatch}`;
      console.error(`oracle: ${why}`);
      process.exit(2);
    }
    return [{ bug, patch: readFileSync(onePatch, 'utf8') }];
  }
  const kept = readResults(join(root, 'bench/real-results.jsonl'));
  reportUnbuilt(realDir, { half: flag('--half'), match: (b) => filters.length === 0 || filters.some((f) => b.id.includes(f)) });
  return bugs
    .filter((bug) => filters.length === 0 || filters.some((f) => bug.id.includes(f)))
    .flatMap((bug) => {
      const patch = kept.get(bug.id)?.patch;
      const upstream = readFileSync(join(bug.dir, 'fix.patch'), 'utf8');
      return patch && patchHash(patch) !== patchHash(upstream) ? [{ bug, patch }] : [];
    });
}

for (const { bug, patch } of patchesToJudge()) {
  // The failing tests as a run sees them: the baseline of a fresh copy.
  const dir = materializeReal(bug, 'oracle-baseline');
  const baseline = await realBaseline(bug, dir, 300_000);
  rmSync(dir, { recursive: true, force: true });
  if (typeof baseline === 'string') {
    console.log(`${bug.id}: not compared: ${baseline.split('\n')[0]}`);
    continue;
  }
  const started = Date.now();
  const verdict = await compareWithUpstream(
    bug,
    patch,
    baseline.gate.report.tests.filter((t) => t.status === 'failed'),
  );
  console.log(
    `${bug.id} \`${patchHash(patch).slice(0, 8)}\` (judged correct: ${judgeCorrect(bug, patch)}, ${((Date.now() - started) / 1000).toFixed(0)} s): ${oracleText(verdict)}`,
  );
}
process.exit(0);
