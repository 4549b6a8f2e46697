// Wrong-but-plausible patches written by hand (issue 47, item 2), beside the generated mutants: a
// person reads the failing test, the buggy code and the upstream fix, and writes the patch a hurried
// contributor would (a special case of the test's input, a condition narrowed, a check deleted, a
// fix on the caller's side only). Each sits in bench/real/<id>/mutants/ as a generated mutant does,
// `<hash>.patch` and an entry of mutants.json with origin `hand`, first under `written`:
// bench/mutant-separate.ts runs the whole suite on it, then its separation program, and
// bench/assess-mutants.ts measures it like a kept mutant when both say it is a wrong patch.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixLines } from './fix-lines.ts';
import { readMutants, writeMutants, type DescribedMutant, type MutantsFile } from './mutant-files.ts';
import { patchHash } from './real-corpus.ts';
import { emptyOutcome } from './mutant-keep.ts';

export interface HandPatch {
  /** The kind of wrong patch: `special-case`, `narrowed`, `check-deleted`, `caller-side`, ... */
  kind: string;
  description: string;
  /** Against the buggy snapshot, as git applies it. */
  patch: string;
}

const HAND_LISTS = ['kept', 'equivalent', 'notCompared', 'unjudged', 'written', 'failsSuite'] as const;
const SUITE_PASSING: ReadonlySet<string> = new Set(['kept', 'equivalent', 'notCompared', 'unjudged']);

type Lists = Pick<MutantsFile, (typeof HAND_LISTS)[number] | 'plausible' | 'tried'>;

/** Whether any of the file's entries, in whichever list, was written by hand. */
export const hasHandPatches = (file: MutantsFile): boolean =>
  HAND_LISTS.some((list) => (file[list] as DescribedMutant[]).some((m) => m.origin === 'hand'));

/**
 * The generated mutants just made, with the hand-written ones of the bug's previous mutants.json
 * carried over, each in its list, and their patches: made again, the mutants replace the folder,
 * and a person's patches must not go with it.
 */
export function withHandPatches<T extends Lists>(
  made: T,
  patches: ReadonlyMap<string, string>,
  previous: { file: MutantsFile; patches: ReadonlyMap<string, string> } | null,
): { made: T; patches: Map<string, string> } {
  const merged = { ...made };
  const all = new Map(patches);
  for (const list of HAND_LISTS) {
    const hand = (previous?.file[list] ?? []).filter((m) => m.origin === 'hand');
    (merged[list] as DescribedMutant[]) = [...(made[list] as DescribedMutant[]), ...hand];
    if (SUITE_PASSING.has(list)) merged.plausible += hand.length;
    if (list !== 'written') merged.tried += hand.length;
    for (const m of hand) {
      const patch = previous?.patches.get(m.hash);
      if (patch) all.set(m.hash, patch);
    }
  }
  return { made: merged, patches: all };
}

/**
 * Adds a hand-written patch to the bug's mutants, unrun (`written`); mutants.json is made when the
 * bug has none. Returns its hash (its separation program is `<hash>.separate.mjs` or `.py`), or a
 * string starting with "refused" when the bug's mutants were kept by the assessment, whose kept set
 * a patch judged another way would not belong to.
 */
export function addHandPatch(bugDir: string, bugId: string, commit: string, hand: HandPatch): { hash: string } | string {
  const changed = fixLines(hand.patch)[0];
  if (!changed) return 'refused: the patch changes no file';
  const hash = patchHash(hand.patch);
  const upstream = patchHash(readFileSync(join(bugDir, 'fix.patch'), 'utf8'));
  if (hash === upstream) return 'refused: the patch is the upstream fix';
  const found = readMutants(bugDir, true);
  if (found && found.file.keptBy !== 'separation') return 'refused: these mutants were kept by the assessment';
  const file: MutantsFile = found?.file ?? {
    bug: bugId,
    upstream,
    commit,
    ...emptyOutcome('separation', 0, { tried: 0, plausible: [] }),
  };
  const patches = new Map(found?.patches ?? []);
  const known = HAND_LISTS.some((list) => (file[list] as DescribedMutant[]).some((m) => m.hash === hash));
  if (!known) {
    const line = changed.buggy[0] ?? changed.fixed[0] ?? 1;
    file.written.push({ hash, origin: 'hand', file: changed.file, line, kind: hand.kind, description: hand.description });
  }
  patches.set(hash, hand.patch);
  writeMutants(bugDir, file, patches);
  return { hash };
}
