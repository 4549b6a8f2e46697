// A bug's kept mutants on disk: bench/real/<id>/mutants/<hash>.patch, one per wrong-but-plausible
// patch, and mutants.json, what each is and the inputs that tell it from the upstream fix. Built by
// bench/mutant-patches.ts on the machine that holds the bug, ignored by git like the bug's other
// built files (its patches are the project's code mutated); read by bench/assess-mutants.ts.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const separation = z.object({
  input: z.string(),
  upstream: z.string(),
  mutant: z.string(),
  atFailingTests: z.literal(true).optional(),
});

const described = z.object({
  hash: z.string().regex(/^[0-9a-f]{16}$/),
  /** Mutated from the upstream fix's lines or the buggy lines (mutant-generate.ts), or written by hand. */
  origin: z.enum(['fix', 'buggy', 'hand']),
  file: z.string(),
  line: z.number().int(),
  kind: z.string(),
  description: z.string(),
});

export const mutantsFileSchema = z.object({
  bug: z.string(),
  /**
   * How a suite-passing mutant was told from the upstream fix: by the product's own assessment
   * (mutant-keep.ts), or by a separation program written by hand next to it (mutant-separate.ts),
   * which does not depend on what the assessment's probes see.
   */
  keptBy: z.enum(['assessment', 'separation']).default('assessment'),
  /** The upstream fix's patch hash: mutants are of this fix. */
  upstream: z.string(),
  commit: z.string(),
  generated: z.number().int(),
  tried: z.number().int(),
  /** Passed the whole suite. */
  plausible: z.number().int(),
  /** Plausible and shown different from the upstream fix by an input (the first few kept). */
  kept: z.array(
    described.extend({
      disagreements: z.number().int().min(1),
      separatedBy: z.array(separation).min(1),
      /** Every separating input found (up to 200): a report that lists one shows the decisive input. */
      inputs: z.array(z.string()).min(1),
    }),
  ),
  /** Plausible, and no input compared tells them from the upstream fix: dropped as equivalent. */
  equivalent: z.array(described.extend({ compared: z.string() })),
  /** Plausible, but the comparison could not run. */
  notCompared: z.array(described.extend({ why: z.string() })),
  /** Plausible and not yet separated (`keptBy: separation`, before bench/mutant-separate.ts runs). */
  unjudged: z.array(described).default([]),
  /**
   * Written by hand (origin `hand`, added by mutant-hand.ts) and not yet run through the suite:
   * bench/mutant-separate.ts runs the whole suite on each first, and judges only those that pass.
   */
  written: z.array(described).default([]),
  /** Written by hand, and the failing tests or the whole suite fail with it: not plausible, never measured. */
  failsSuite: z.array(described).default([]),
});

export type MutantsFile = z.infer<typeof mutantsFileSchema>;
export type MutantsFileInput = z.input<typeof mutantsFileSchema>;
export type KeptMutant = MutantsFile['kept'][number];
export type DescribedMutant = z.infer<typeof described>;

/** Every suite-passing mutant the file names, whatever became of it. */
export const plausibleOf = (file: MutantsFile): DescribedMutant[] =>
  [...file.kept, ...file.equivalent, ...file.notCompared, ...file.unjudged].map((m) => described.parse(m));

/** Every patch the file names: the suite-passing ones, and those written by hand, run or not. */
const everyOf = (file: MutantsFile): DescribedMutant[] => [...plausibleOf(file), ...file.written, ...file.failsSuite];

export const mutantsDir = (bugDir: string) => join(bugDir, 'mutants');

/**
 * Replaces the bug's mutants with these: the patches by hash, and mutants.json. Kept by separation,
 * every patch the file names is written, so that bench/mutant-separate.ts can judge it
 * again once its separation program is written; the programs (`<hash>.separate.*`) stay.
 */
export function writeMutants(bugDir: string, input: MutantsFileInput, patches: ReadonlyMap<string, string>): void {
  const file = mutantsFileSchema.parse(input);
  const dir = mutantsDir(bugDir);
  const programs = existsSync(dir) ? readdirSync(dir).filter((f) => SEPARATE_PROGRAM.test(f)) : [];
  for (const entry of existsSync(dir) ? readdirSync(dir) : [])
    if (!programs.includes(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const mutant of file.keptBy === 'separation' ? everyOf(file) : file.kept) {
    const patch = patches.get(mutant.hash);
    if (!patch) throw new Error(`no patch for mutant ${mutant.hash}`);
    writeFileSync(join(dir, `${mutant.hash}.patch`), patch);
  }
  writeFileSync(join(dir, 'mutants.json'), `${JSON.stringify(file, null, 2)}\n`);
}

/** A mutant's separation program, written by hand next to its patch (mutant-separate.ts). */
export const SEPARATE_PROGRAM = /^[0-9a-f]{16}\.separate\.(mjs|py)$/;

/**
 * The bug's kept mutants with their patches, or null when none were made here; with `all`, every
 * other patch the file names (suite-passing or written by hand) found on disk too.
 */
export function readMutants(bugDir: string, all = false): { file: MutantsFile; patches: Map<string, string> } | null {
  const dir = mutantsDir(bugDir);
  if (!existsSync(join(dir, 'mutants.json'))) return null;
  const file = mutantsFileSchema.parse(JSON.parse(readFileSync(join(dir, 'mutants.json'), 'utf8')));
  const onDisk = new Set(readdirSync(dir));
  const patches = new Map<string, string>();
  for (const other of all ? everyOf(file) : [])
    if (onDisk.has(`${other.hash}.patch`)) patches.set(other.hash, readFileSync(join(dir, `${other.hash}.patch`), 'utf8'));
  for (const kept of file.kept) {
    if (!onDisk.has(`${kept.hash}.patch`)) throw new Error(`${dir}: mutants.json keeps ${kept.hash} and its patch is missing`);
    patches.set(kept.hash, readFileSync(join(dir, `${kept.hash}.patch`), 'utf8'));
  }
  return { file, patches };
}
