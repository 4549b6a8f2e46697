// Candidates for the suspicious lines of each file, from the generator of its language: what the
// engine validates and what bench/rank-real.ts ranks, made the same way by both.
import { GenerationError, type Candidate, type GenerationContext } from './candidate.ts';
import { generatorFor } from './generators.ts';

export interface Generated {
  sources: Map<string, string>;
  candidates: Candidate[];
  /** Generators that could not do their work, one sentence each. */
  problems: string[];
}

/** `readSource` gives a file's text, or null when it cannot be read (the file is then left out). */
export async function generateCandidates(
  readSource: (file: string) => Promise<string | null>,
  linesByFile: ReadonlyMap<string, ReadonlySet<number>>,
  context: GenerationContext,
): Promise<Generated> {
  const generated: Generated = { sources: new Map(), candidates: [], problems: [] };
  const files = [...linesByFile].sort(([a], [b]) => (a < b ? -1 : 1));
  // Every source first: a template at one file's call may need what another file declares.
  for (const [file] of files) {
    if (!generatorFor(file)) continue;
    const source = await readSource(file);
    if (source !== null) generated.sources.set(file, source);
  }
  for (const [file, lines] of files) {
    const generator = generatorFor(file);
    const source = generated.sources.get(file);
    if (!generator || source === undefined) continue;
    try {
      generated.candidates.push(...(await generator.generate(file, source, lines, { ...context, sources: generated.sources })));
    } catch (error) {
      if (!(error instanceof GenerationError)) throw error;
      generated.problems.push(error.message);
      generated.candidates.push(...error.candidates);
    }
  }
  return generated;
}
