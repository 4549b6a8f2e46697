// The `repair` engine's templates as a source of rivals for another engine's patch (the assessment's
// rival-search.ts): every one-edit candidate at the lines the patch changed, on the original files,
// those that edit the tokens the patch changed first (edited-spans.ts), each group in the engine's
// own order. An LLM's or an agent's patch is then compared with the other plausible edits of its
// place, as the `repair` engine's own choice is through its exploration.
import type { RivalCandidate, RivalRequest, RivalSource } from './rival-search.ts';
import { lineChanges } from './patched-versions.ts';
import { candidateSummary } from '../engines/repair/choose-plausible.ts';
import { generateCandidates } from '../engines/repair/generate-candidates.ts';
import { generatorFor } from '../engines/repair/generators.ts';
import { optionNamesInTests } from '../engines/repair/option-names.ts';
import { outputDifferences } from '../engines/repair/output-differences.ts';
import { rankCandidates } from '../engines/repair/rank-candidates.ts';
import type { Candidate, SuspiciousLine } from '../engines/repair/candidate.ts';
import { editedSpans, touchesSpan, type Span } from './edited-spans.ts';
import { valueTypesInTests } from '../engines/repair/value-types.ts';
import { weakenings } from '../engines/repair/weakening/weakens-check.ts';

/** Most candidates handed over: the search stops at its time share or its first few plausible ones long before. */
const MAX_RIVAL_CANDIDATES = 200;

export const oneEditRivals: RivalSource = {
  async candidates(request: RivalRequest): Promise<RivalCandidate[]> {
    const linesByFile = new Map<string, Set<number>>();
    const spans = new Map<string, Span[]>();
    for (const [file, after] of request.patched.files) {
      if (after === null || !generatorFor(file)) continue;
      const before = await request.original(file);
      if (before === null) continue;
      const { oldLines } = lineChanges(before, after);
      if (oldLines.size > 0) linesByFile.set(file, oldLines);
      spans.set(file, editedSpans(before, after));
    }
    if (linesByFile.size === 0) return [];
    const optionNames = await optionNamesInTests(request.dir, request.fixed, request.testFiles);
    const { sources, candidates } = await generateCandidates(request.original, linesByFile, {
      optionNames,
      valueTypes: valueTypesInTests(request.fixed),
      outputDifferences: outputDifferences(request.fixed),
    });
    // Every changed line is as suspicious as any other: the engine's priors and sizes order them.
    const suspicious: SuspiciousLine[] = [...linesByFile].flatMap(([file, lines]) =>
      [...lines].map((line) => ({ file, line, score: 1, signals: ['patch'] })),
    );
    const parses = (file: string, text: string) => generatorFor(file)?.parses?.(file, text) ?? true;
    // Those that edit the tokens the patch changed first, each group in the engine's order.
    const atPatch = (c: Candidate) => c.edits.some((edit) => touchesSpan(edit, spans.get(c.file) ?? []));
    const first = rankCandidates(candidates.filter(atPatch), suspicious, sources, MAX_RIVAL_CANDIDATES, parses);
    const rest = candidates.filter((c) => !atPatch(c));
    return [...first, ...rankCandidates(rest, suspicious, sources, MAX_RIVAL_CANDIDATES - first.length, parses)]
      .filter((c) => c.result !== request.patched.files.get(c.file))
      .map((c) => ({ file: c.file, text: c.result, summary: candidateSummary(c) }));
  },
  weakens: (found) => weakenings(found),
};
