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
  origin: z.enum(['fix', 'buggy']),
  file: z.string(),
  line: z.number().int(),
  kind: z.string(),
  description: z.string(),
});

export const mutantsFileSchema = z.object({
  bug: z.string(),
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
});

export type MutantsFile = z.infer<typeof mutantsFileSchema>;
export type KeptMutant = MutantsFile['kept'][number];

export const mutantsDir = (bugDir: string) => join(bugDir, 'mutants');

/** Replaces the bug's mutants with these: the patches by hash, and mutants.json. */
export function writeMutants(bugDir: string, file: MutantsFile, patches: ReadonlyMap<string, string>): void {
  const dir = mutantsDir(bugDir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const kept of file.kept) {
    const patch = patches.get(kept.hash);
    if (!patch) throw new Error(`no patch for kept mutant ${kept.hash}`);
    writeFileSync(join(dir, `${kept.hash}.patch`), patch);
  }
  writeFileSync(join(dir, 'mutants.json'), `${JSON.stringify(mutantsFileSchema.parse(file), null, 2)}\n`);
}

/** The bug's kept mutants with their patches, or null when none were made here. */
export function readMutants(bugDir: string): { file: MutantsFile; patches: Map<string, string> } | null {
  const dir = mutantsDir(bugDir);
  if (!existsSync(join(dir, 'mutants.json'))) return null;
  const file = mutantsFileSchema.parse(JSON.parse(readFileSync(join(dir, 'mutants.json'), 'utf8')));
  const onDisk = new Set(readdirSync(dir));
  const patches = new Map<string, string>();
  for (const kept of file.kept) {
    if (!onDisk.has(`${kept.hash}.patch`)) throw new Error(`${dir}: mutants.json keeps ${kept.hash} and its patch is missing`);
    patches.set(kept.hash, readFileSync(join(dir, `${kept.hash}.patch`), 'utf8'));
  }
  return { file, patches };
}
