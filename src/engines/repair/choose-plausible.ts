// Among the candidates that passed the tests (validate-candidates.ts collects up to MAX_PLAUSIBLE
// while `repair.exploreTime` lasts), the least surprising: one that weakens a check
// (weakening/weakens-check.ts) ranks below one that does not; among equals, the engine's own order
// wins. The others are kept as alternatives, each a whole patch against the pristine commit.
import type { AlternativeCandidate } from '../engine.ts';
import type { Workspace } from '../../workspace/workspace.ts';
import type { RankedCandidate } from './rank-candidates.ts';
import { weakenings } from './weakening/weakens-check.ts';

/** Most candidates that pass the tests collected from one validation, the first one included. */
export const MAX_PLAUSIBLE = 6;

export interface PlausibleChoice {
  chosen: RankedCandidate;
  /** Why the chosen one weakens a check (when every plausible one does). */
  weakens?: string;
  /** One line for the chosen one, as alternatives have. */
  summary: string;
  alternatives: AlternativeCandidate[];
}

/** `src/a.js:12 \`<\` → \`<=\` (template relational-operator)`: where, what, and which template. */
export function candidateSummary(c: RankedCandidate): string {
  const what = c.description.replace(/ at \S+:\d+$/, '');
  return `${c.file}:${c.line} ${what} (template ${c.template})`;
}

/**
 * Chooses among the plausible candidates (in rank order, the first is the one validation found
 * first in that order) and builds the others' patches in the workspace, which it leaves as it found
 * it: the caller applies the chosen one.
 */
export async function choosePlausible(
  workspace: Workspace,
  plausible: readonly RankedCandidate[],
  rankOf: (c: RankedCandidate) => number,
): Promise<PlausibleChoice> {
  const sources = new Map<string, string>();
  for (const c of plausible) if (!sources.has(c.file)) sources.set(c.file, await workspace.readFile(c.file));
  const reasons = await weakenings(plausible.map((c) => ({ file: c.file, before: sources.get(c.file) ?? '', after: c.result })));
  const judged = plausible.map((candidate, i) => ({ candidate, weakens: reasons[i] ?? null }));
  // A stable sort: the engine's order decides among equals.
  const order = [...judged].sort((a, b) => Number(a.weakens !== null) - Number(b.weakens !== null));
  const [best, ...others] = order;
  if (!best) throw new Error('choosePlausible needs at least one plausible candidate');
  const alternatives: AlternativeCandidate[] = [];
  for (const other of others) {
    const original = sources.get(other.candidate.file) ?? '';
    await workspace.writeFile(other.candidate.file, other.candidate.result);
    const patch = await workspace.diff();
    await workspace.writeFile(other.candidate.file, original);
    alternatives.push({
      patch,
      summary: candidateSummary(other.candidate),
      ...(other.weakens ? { weakens: other.weakens } : {}),
      passedOver: passedOver(best, other, rankOf),
    });
  }
  return {
    chosen: best.candidate,
    summary: candidateSummary(best.candidate),
    ...(best.weakens ? { weakens: best.weakens } : {}),
    alternatives,
  };
}

type Judged = { candidate: RankedCandidate; weakens: string | null };

function passedOver(best: Judged, other: Judged, rankOf: (c: RankedCandidate) => number): string {
  const [b, o] = [rankOf(best.candidate), rankOf(other.candidate)];
  if (other.weakens && !best.weakens) return `it weakens a check and candidate ${b} does not`;
  const both = other.weakens ? 'both weaken a check; ' : '';
  return `${both}candidate ${b} comes first in the engine's order (this one is candidate ${o})`;
}
