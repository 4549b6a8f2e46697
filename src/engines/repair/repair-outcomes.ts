// How an attempt of the repair engine ends: the best plausible candidate written to the workspace,
// else the partial fix that leaves fewest tests failing, else giving up. The workspace is left as
// the outcome says; the loop's gate judges it.
import { ZERO_COST } from '../../core/cost.ts';
import type { AttemptContext, EngineOutcome } from '../engine.ts';
import { choosePlausible } from './choose-plausible.ts';
import type { RankedCandidate } from './rank-candidates.ts';
import type { ValidationResult } from './validate-candidates.ts';

/** Nothing written to the workspace: the summary says why, the counts say how far the attempt got. */
export function giveUp(summary: string, stats: Record<string, number>): EngineOutcome {
  return { summary, cost: ZERO_COST, gaveUp: true, stats };
}

/** The best of the candidates that passed applied to the workspace, and the others as alternatives. */
export async function applyBest(
  ctx: AttemptContext,
  ranked: readonly RankedCandidate[],
  result: ValidationResult,
  spent: string,
  rivalRanks: ReadonlyMap<RankedCandidate, number>,
): Promise<EngineOutcome> {
  const rankOf = (c: RankedCandidate) => ranked.indexOf(c) + 1 || (rivalRanks.get(c) ?? 0);
  const choice = await choosePlausible(ctx.workspace, result.plausible, rankOf);
  const w = choice.chosen;
  await ctx.workspace.writeFile(w.file, w.result);
  for (const a of choice.alternatives) ctx.log(`repair: also passes: ${a.summary}${a.weakens ? `; ${a.weakens}` : ''}`);
  const first = result.plausible[0];
  const among =
    result.plausible.length > 1
      ? `chosen among ${result.plausible.length} plausible${first && first !== w ? `, preferred to candidate ${rankOf(first)}, which weakens a check` : ''}, `
      : '';
  return {
    summary: `${w.description} (candidate ${rankOf(w)} of ${ranked.length}, ${among}${spent})`,
    cost: ZERO_COST,
    gaveUp: false,
    chosen: { summary: choice.summary, ...(choice.weakens ? { weakens: choice.weakens } : {}) },
    alternatives: choice.alternatives,
  };
}

/** The best partial fix written to the workspace: fewer tests fail with it, and none that passed before. */
export async function applyPartial(
  ctx: AttemptContext,
  partial: NonNullable<ValidationResult['partial']>,
  spent: string,
): Promise<EngineOutcome> {
  const p = partial.candidate;
  await ctx.workspace.writeFile(p.file, p.result);
  return {
    summary: `partial: ${p.description} leaves ${partial.failing} failing (${spent})`,
    cost: ZERO_COST,
    gaveUp: false,
  };
}

/** Why no candidate was kept, from how the validation stopped. */
export function stopReason(stoppedBy: ValidationResult['stoppedBy']): string {
  return stoppedBy === 'deadline'
    ? 'the time budget ran out'
    : stoppedBy === 'aborted'
      ? 'the run was cancelled'
      : 'no candidate passed the tests';
}
