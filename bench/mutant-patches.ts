// Wrong-but-plausible patches for the real corpus (issue 47, item 2): for each bug, mutants of its
// upstream fix and of its buggy lines (bench/lib/mutant-generate.ts), the ones that pass the whole
// suite and that an input shows different from the upstream fix (bench/lib/mutant-keep.ts), written
// to bench/real/<id>/mutants/ (bench/lib/mutant-files.ts; ignored by git). bench/assess-mutants.ts
// then measures the assessment on them. With `--keep-by separation`, every mutant that passes the
// whole suite is written unjudged, and bench/mutant-separate.ts keeps those a hand-written program
// separates from the upstream fix: a set that does not depend on what the assessment sees.
// Run: node bench/mutant-patches.ts [--filter a,b] [--max 40] [--half tuning|held-out] [--keep-by assessment|separation]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag } from './lib/args.ts';
import { generateMutants } from './lib/mutant-generate.ts';
import { readMutants, writeMutants } from './lib/mutant-files.ts';
import { hasHandPatches, withHandPatches } from './lib/mutant-hand.ts';
import { keepMutants, keepUnjudged } from './lib/mutant-keep.ts';
import { testLiterals } from './lib/mutant-special.ts';
import { materializeReal, patchHash, type RealBug } from './lib/real-corpus.ts';
import { loadRealHalf } from './lib/real-split.ts';
import { reportUnbuilt } from './lib/real-unbuilt.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const realDir = join(root, 'bench/real');
const filters = (flag('--filter') ?? '').split(',');
/** Mutants run through the suite per bug: each costs up to two runs of it. */
const max = Number(flag('--max') ?? 40);
const keepBy = flag('--keep-by') ?? 'assessment';
if (keepBy !== 'assessment' && keepBy !== 'separation') throw new Error(`--keep-by ${keepBy}: assessment or separation`);
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();

async function mutantsOf(bug: RealBug) {
  const fixPatch = readFileSync(join(bug.dir, 'fix.patch'), 'utf8');
  const buggy = materializeReal(bug, 'mutants-buggy');
  const fixed = materializeReal(bug, 'mutants-fixed', true);
  const reader = (dir: string) => (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : null);
  try {
    const literals = testLiterals(readFileSync(join(bug.dir, 'tests.patch'), 'utf8'));
    return { fixPatch, mutants: await generateMutants({ fixPatch, buggy: reader(buggy), fixed: reader(fixed), literals }) };
  } finally {
    rmSync(buggy, { recursive: true, force: true });
    rmSync(fixed, { recursive: true, force: true });
  }
}

const match = (b: { id: string }) => filters.some((f) => b.id.includes(f));
reportUnbuilt(realDir, { half: flag('--half'), match });
for (const bug of loadRealHalf(realDir, flag('--half')).filter(match)) {
  // Patches written by hand (bench/mutant-hand.ts) are judged by separation only, and stay.
  const previous = readMutants(bug.dir, true);
  if (keepBy === 'assessment' && previous && hasHandPatches(previous.file)) {
    console.log(`${bug.id}: its mutants hold patches written by hand, judged by separation: --keep-by separation; skipped`);
    continue;
  }
  const { fixPatch, mutants } = await mutantsOf(bug);
  console.log(`${bug.id}: ${mutants.length} mutants, running the first ${Math.min(max, mutants.length)}`);
  const outcome = await (keepBy === 'separation' ? keepUnjudged : keepMutants)(bug, mutants, max);
  if (typeof outcome === 'string') {
    console.log(`${bug.id}: no mutants kept: ${outcome.split('\n')[0]}`);
    continue;
  }
  const kept = withHandPatches(outcome, new Map(mutants.map((m) => [m.hash, m.patch])), previous);
  writeMutants(bug.dir, { bug: bug.id, upstream: patchHash(fixPatch), commit, ...kept.made }, kept.patches);
  if (keepBy === 'separation') {
    console.log(
      `${bug.id}: ${outcome.tried} run, ${outcome.plausible} pass the whole suite (unjudged: bench/mutant-separate.ts)`,
    );
    continue;
  }
  console.log(
    `${bug.id}: ${outcome.tried} run, ${outcome.plausible} pass the whole suite, ${outcome.kept.length} kept (an input tells them from the upstream fix), ${outcome.equivalent.length} equivalent, ${outcome.notCompared.length} not compared`,
  );
}
