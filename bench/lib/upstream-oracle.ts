// An oracle independent of the visible tests (issue 30, item 4): a plausible candidate run against
// the upstream fix, on the suite's calls of every function either one changes and on inputs
// generated around them. It is the product's own assessment (assess-patch.ts) with the candidate
// as the chosen patch and the upstream fix as its one alternative: where the alternative
// "disagrees", the candidate and the upstream fix return different results. A candidate that
// agrees everywhere compared is very likely right; one that differs is shown where, for the person
// who judges it (the hand judgement in meta.json stays the verdict the counts use).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AlternativePatch } from '../../src/core/assessment.ts';
import type { TestCaseResult } from '../../src/core/test-report.ts';
import { assessAgainst } from './assess-against.ts';
import { materializeReal, setUp, type RealBug } from './real-corpus.ts';
import { shell } from './workdir.ts';

export type OracleVerdict =
  | { verdict: 'agrees'; suiteCalls: number; generatedInputs: number }
  | { verdict: 'differs'; disagreements: AlternativePatch['disagreements'] }
  | { verdict: 'not compared'; why: string };

const SETUP_TIMEOUT_MS = 15 * 60_000;

/** `failing`: the baseline's failing tests, as the run that found the candidate saw them. */
export async function compareWithUpstream(
  bug: RealBug,
  patch: string,
  failing: readonly TestCaseResult[],
): Promise<OracleVerdict> {
  const upstream = readFileSync(join(bug.dir, 'fix.patch'), 'utf8');
  const setup = bug.setup;
  const assessment = await assessAgainst({
    project: materializeReal(bug, 'oracle'),
    test: bug.test,
    ...(setup
      ? {
          setUp: { command: setup, run: (cwd: string) => setUp(bug, cwd, (command, at) => shell(command, at, SETUP_TIMEOUT_MS)) },
        }
      : {}),
    patch,
    alternatives: [{ patch: upstream, summary: 'the upstream fix' }],
    failing,
  });
  const theirs = assessment.alternatives[0];
  if (!theirs || assessment.counts.suiteCalls === 0) return { verdict: 'not compared', why: assessment.reason };
  if (theirs.disagreements.length > 0) return { verdict: 'differs', disagreements: theirs.disagreements };
  return { verdict: 'agrees', suiteCalls: assessment.counts.suiteCalls, generatedInputs: assessment.counts.generatedInputs };
}

/** One line for a table or a log. */
export function oracleText(verdict: OracleVerdict): string {
  if (verdict.verdict === 'agrees')
    return `agrees with the upstream fix on ${verdict.suiteCalls} suite calls and ${verdict.generatedInputs} generated inputs`;
  if (verdict.verdict === 'not compared') return `not compared: ${verdict.why}`;
  const shown = verdict.disagreements
    .slice(0, 3)
    .map((d) => `\`${d.input}\`: ${d.chosen} (candidate) vs ${d.alternative} (upstream)`);
  return `differs from the upstream fix on ${verdict.disagreements.length} input(s): ${shown.join('; ')}`;
}
