// The real-bug benchmark's outcomes, one JSON line per bug, each with the commit of fixloop that
// measured it: the corpus takes longer than one sitting, so runs resume from what the file holds.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';

const storedOutcomeSchema = z.object({
  id: z.string().min(1),
  commit: z.string().min(1),
  status: z.string(),
  plausible: z.boolean(),
  correct: z.enum(['yes', 'no', 'unjudged']),
  attempts: z.number().int().nonnegative(),
  fixMs: z.number().nonnegative(),
  reason: z.string(),
  /** A plausible patch that is not the upstream fix, to be judged by hand. */
  patch: z.string().optional(),
  /** The assessment's level of a plausible patch, and its time (measured since the assessment exists). */
  level: z.enum(['verified', 'review']).optional(),
  assessMs: z.number().nonnegative().optional(),
  /** The run's own time, and its flakiness check's (`loop.flakyReruns`), when it ran one. */
  runMs: z.number().nonnegative().optional(),
  rerunsMs: z.number().nonnegative().optional(),
});

export type StoredOutcome = z.infer<typeof storedOutcomeSchema>;

/** The outcomes a results file holds, by bug id; a later line for the same bug (a rerun) wins. */
export function readResults(file: string): Map<string, StoredOutcome> {
  const outcomes = new Map<string, StoredOutcome>();
  if (!existsSync(file)) return outcomes;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (!line.trim()) return;
      let parsed: ReturnType<typeof storedOutcomeSchema.safeParse>;
      try {
        parsed = storedOutcomeSchema.safeParse(JSON.parse(line));
      } catch {
        throw new Error(`${file}:${index + 1}: not a JSON line`);
      }
      if (!parsed.success)
        throw new Error(
          `${file}:${index + 1}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      outcomes.set(parsed.data.id, parsed.data);
    });
  return outcomes;
}

export function appendResult(file: string, outcome: StoredOutcome): void {
  appendFileSync(file, `${JSON.stringify(storedOutcomeSchema.parse(outcome))}\n`);
}
