// Orders candidates: suspiciousness × template prior × a size factor that favours smaller patches;
// identical results are kept once; ties break on stable keys so the order is always the same.
import { applyEdits, type Candidate, type SuspiciousLine } from './candidate.ts';
import { templatePrior } from './priors.ts';

export interface RankedCandidate extends Candidate {
  score: number;
  /** The whole file after the edits. */
  result: string;
}

/** Halves a candidate's weight for every 24 characters it changes. */
export function sizeFactor(size: number): number {
  return 1 / (1 + size / 24);
}

export function rankCandidates(candidates: Candidate[], suspicious: SuspiciousLine[], sources: ReadonlyMap<string, string>, limit: number): RankedCandidate[] {
  const lineScore = new Map(suspicious.map((s) => [`${s.file}:${s.line}`, s.score]));
  const seen = new Set<string>();
  const ranked: RankedCandidate[] = [];
  for (const c of candidates) {
    const source = sources.get(c.file);
    if (source === undefined) continue;
    const result = applyEdits(source, c.edits);
    const key = `${c.file}\0${result}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const score = (lineScore.get(`${c.file}:${c.line}`) ?? 0) * templatePrior(c.template) * sizeFactor(c.size);
    ranked.push({ ...c, score, result });
  }
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      (a.edits[0]?.start ?? 0) - (b.edits[0]?.start ?? 0),
  );
  // Remaining ties keep the generators' own order (stable sort), which puts the likeliest
  // replacement of each operator first.
  return ranked.slice(0, limit);
}
