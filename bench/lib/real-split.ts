// The real corpus's split into a tuning half and a held-out half (bench/real/split.json, drawn once
// by bench/split-real.ts; bench/real/README.md says what each half is for).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { loadRealCorpus, RUNNERS, type RealBug } from './real-corpus.ts';

const splitHalfSchema = z.object({
  projects: z.array(z.string()),
  bugs: z.array(z.string()),
  byRunner: z.record(z.enum(RUNNERS), z.number().int().min(0)),
});

/** bench/real/split.json: the corpus's bugs and projects, each in one half (bench/split-real.ts). */
export const realSplitSchema = z.object({
  seed: z.number().int(),
  rule: z.string(),
  tuned: z.array(z.string()),
  tuning: splitHalfSchema,
  heldOut: splitHalfSchema,
});

export type RealSplit = z.infer<typeof realSplitSchema>;

/** The corpus's split, or undefined before it is split. */
export function readRealSplit(dir: string): RealSplit | undefined {
  const path = join(dir, 'split.json');
  if (!existsSync(path)) return undefined;
  const parsed = realSplitSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success)
    throw new Error(`${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/**
 * Whether a bug is in the held-out half: by its project, so that a bug added later to a held-out
 * project is held out too; by its id where its project is not known here (a bug this checkout lacks).
 */
export function isHeldOut(split: RealSplit | undefined, bug: { id: string; project?: string | undefined }): boolean {
  if (!split) return false;
  return bug.project === undefined ? split.heldOut.bugs.includes(bug.id) : split.heldOut.projects.includes(bug.project);
}

/** `--half`'s value, checked: the tuning half unless the held-out half is asked for by name. */
export function halfOf(half: string | undefined): 'tuning' | 'held-out' {
  if (half !== undefined && half !== 'tuning' && half !== 'held-out')
    throw new Error(`--half is tuning or held-out, not ${half}`);
  return half ?? 'tuning';
}

/**
 * One half of the corpus's built bugs as bench/real/split.json divides it: the tuning half unless the
 * held-out half is asked for by name (`--half held-out`). The held-out half is only measured, never
 * tuned on, so the scripts that run fixloop on the corpus stay off it by default.
 */
export function loadRealHalf(dir: string, half: string | undefined): RealBug[] {
  const heldOut = halfOf(half) === 'held-out';
  const split = readRealSplit(dir);
  return loadRealCorpus(dir).filter((bug) => isHeldOut(split, bug) === heldOut);
}
