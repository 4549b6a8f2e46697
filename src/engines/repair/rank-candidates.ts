// Orders candidates: suspiciousness × template prior × a size factor that favours smaller patches;
// identical results are kept once; ties break on stable keys so the order is always the same. Only
// the candidates that make the cut are applied to their file (and checked to parse): thousands of
// whole-file copies of a large file were most of the engine's time before a single test ran.
import { applyEdits, editsKey, minimalEdits, type Candidate, type SuspiciousLine } from './candidate.ts';
import { SIZE_FREE, templatePrior } from './priors.ts';

export interface RankedCandidate extends Candidate {
  score: number;
  /** The whole file after the edits. */
  result: string;
}

/** Halves a candidate's weight for every 24 characters it changes. */
export function sizeFactor(size: number): number {
  return 1 / (1 + size / 24);
}

/** Whether a file still parses with a candidate applied (its generator's check; none: assumed). */
export type ParseCheck = (file: string, source: string) => boolean;

/** Every candidate scored and in the engine's order, each edit kept once (nothing applied yet). */
function scoredInOrder(
  candidates: Candidate[],
  suspicious: SuspiciousLine[],
  sources: ReadonlyMap<string, string>,
): Array<Candidate & { score: number }> {
  const lineScore = new Map(suspicious.map((s) => [`${s.file}:${s.line}`, s.score]));
  const seen = new Set<string>();
  const scored: Array<Candidate & { score: number }> = [];
  for (const c of candidates) {
    const source = sources.get(c.file);
    if (source === undefined) continue;
    const minimal = minimalEdits(source, c.edits);
    if (minimal.length === 0) continue;
    const key = editsKey(c.file, minimal);
    if (seen.has(key)) continue;
    seen.add(key);
    // The size of what actually changes: a template that rewrites a whole condition to drop ` && x`
    // changes nine characters, not the condition's forty.
    const size = minimal.reduce((n, e) => n + Math.max(e.end - e.start, e.text.length), 0);
    const score =
      (lineScore.get(`${c.file}:${c.line}`) ?? 0) *
      templatePrior(c.template) *
      (SIZE_FREE.has(c.template) || c.fromTests ? 1 : sizeFactor(size));
    scored.push({ ...c, score });
  }
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      (a.edits[0]?.start ?? 0) - (b.edits[0]?.start ?? 0),
  );
  // Remaining ties keep the generators' own order (stable sort), which puts the likeliest
  // replacement of each operator first.
  return scored;
}

export function rankCandidates(
  candidates: Candidate[],
  suspicious: SuspiciousLine[],
  sources: ReadonlyMap<string, string>,
  limit: number,
  parses: ParseCheck = () => true,
): RankedCandidate[] {
  const ranked: RankedCandidate[] = [];
  for (const c of scoredInOrder(candidates, suspicious, sources)) {
    if (ranked.length >= limit) break;
    const result = applyEdits(sources.get(c.file) ?? '', c.edits);
    if (parses(c.file, result)) ranked.push({ ...c, result });
  }
  return ranked;
}

/**
 * The candidates at one line, wherever the engine's order puts them (those past its cut too), each
 * with its place in that order (1-based): the other edits of the place a plausible candidate
 * changed, which the tests are least likely to tell apart from it (repair-engine.ts explores them).
 */
export function candidatesAt(
  candidates: Candidate[],
  suspicious: SuspiciousLine[],
  sources: ReadonlyMap<string, string>,
  at: { file: string; line: number },
  parses: ParseCheck = () => true,
): Array<{ candidate: RankedCandidate; rank: number }> {
  const found: Array<{ candidate: RankedCandidate; rank: number }> = [];
  for (const [index, c] of scoredInOrder(candidates, suspicious, sources).entries()) {
    if (c.file !== at.file || c.line !== at.line) continue;
    const result = applyEdits(sources.get(c.file) ?? '', c.edits);
    if (parses(c.file, result)) found.push({ candidate: { ...c, result }, rank: index + 1 });
  }
  return found;
}
