// Wrong-but-plausible patches kept by a separation that does not depend on the assessment (issue
// 47, item 2): for each bug whose mutants bench/mutant-patches.ts wrote with `--keep-by separation`,
// every suite-passing mutant is judged by the program written by hand next to it
// (bench/real/<id>/mutants/<hash>.separate.mjs or .py; bench/lib/mutant-separate.ts), run on the
// upstream fix and on the mutant: kept when an input's outputs differ, equivalent when none was
// written or they agree. A patch written by hand (bench/mutant-hand.ts) is run through the whole
// suite first. mutants.json is rewritten; bench/assess-mutants.ts measures only the kept.
// Run: node bench/mutant-separate.ts [--half tuning|held-out] [--filter a,b]
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag } from './lib/args.ts';
import { readMutants, writeMutants } from './lib/mutant-files.ts';
import { separateMutants } from './lib/mutant-separate.ts';
import { loadRealHalf } from './lib/real-split.ts';
import { reportUnbuilt } from './lib/real-unbuilt.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const realDir = join(root, 'bench/real');
const filters = (flag('--filter') ?? '').split(',');
const match = (b: { id: string }) => filters.some((f) => b.id.includes(f));

const totals = { bugs: 0, plausible: 0, kept: 0, equivalent: 0, notCompared: 0, failsSuite: 0, bugsWithKept: 0 };
reportUnbuilt(realDir, { half: flag('--half'), match });
for (const bug of loadRealHalf(realDir, flag('--half')).filter(match)) {
  const mutants = readMutants(bug.dir, true);
  if (!mutants || mutants.file.keptBy !== 'separation') {
    console.log(`${bug.id}: no mutants kept by separation here (node bench/mutant-patches.ts --keep-by separation); skipped`);
    continue;
  }
  const judged = await separateMutants(bug, mutants.file, mutants.patches);
  if (typeof judged === 'string') {
    console.log(`${bug.id}: not separated: ${judged.split('\n')[0]}`);
    continue;
  }
  writeMutants(bug.dir, judged, mutants.patches);
  totals.bugs++;
  totals.plausible += judged.plausible;
  totals.kept += judged.kept.length;
  totals.equivalent += judged.equivalent.length;
  totals.notCompared += judged.notCompared.length;
  totals.failsSuite += judged.failsSuite.length;
  if (judged.kept.length > 0) totals.bugsWithKept++;
  console.log(
    `${bug.id}: ${judged.plausible} pass the whole suite: ${judged.kept.length} kept, ${judged.equivalent.length} equivalent, ${judged.notCompared.length} not compared (its program fails on the upstream fix)${judged.failsSuite.length ? `; ${judged.failsSuite.length} written by hand fail the suite` : ''}`,
  );
}
console.log(
  `\n${totals.bugs} bugs: ${totals.plausible} suite-passing mutants, ${totals.kept} kept (on ${totals.bugsWithKept} bugs), ${totals.equivalent} equivalent, ${totals.notCompared} not compared, ${totals.failsSuite} written by hand that fail the suite`,
);
