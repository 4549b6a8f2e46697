// The headline of a green run at level `review` (docs/design.md §3.3): the tests pass, and what a person
// should look at before merging, named in the sentence itself (the check run's title, the status
// comment, the commit message): the first changes outside the failing tests with their values before
// and after, the other patches the tests do not decide against, or why the assessment could not look.
import type { Assessment } from '../core/assessment.ts';
import type { RunResult } from '../core/run-result.ts';
import { ambiguities, changeText, clip, code, outsideChanges, plural } from '../report/assessment-words.ts';

/** Changes and disagreements named in the headline; the report lists them all. */
const SHOWN = 2;

export function reviewHeadline(result: RunResult, assessment: Assessment): string {
  return `${testsPass(result)}; ${whatToReview(assessment)}.`;
}

function testsPass(result: RunResult): string {
  const attempts = plural(result.attempts.length, 'attempt');
  if (result.verification?.evidence === 'exit-code')
    return `Tests pass by exit code only after ${attempts} (test.evidence: exit-code)`;
  const fixed = result.verification?.failToPass.length ?? 0;
  const what =
    fixed === 0 ? 'the suite now passes' : fixed === 1 ? '1 failing test now passes' : `${fixed} failing tests now pass`;
  const total = result.final?.parsed ? `, ${result.final.passed}/${result.final.total} passing` : '';
  return `Tests pass after ${attempts} (${what}; replayed on a pristine checkout${total})`;
}

function whatToReview(assessment: Assessment): string {
  const parts: string[] = [];
  const outside = outsideChanges(assessment);
  if (outside.count > 0) {
    const shown = outside.listed.slice(0, SHOWN).map((c) => changeText(c));
    const more = outside.count > shown.length ? `, and ${outside.count - shown.length} more` : '';
    parts.push(`${plural(outside.count, 'behaviour change')} outside the failing tests: ${shown.join(', ')}${more}`);
  }
  const open = ambiguities(assessment);
  if (open.length > 0) {
    const first = open[0]?.disagreements[0];
    const example = first
      ? ` (${code(first.input, 60)}: ${clip(first.chosen, 40)} here, ${clip(first.alternative, 40)} with the other)`
      : '';
    parts.push(
      `an ambiguity: the tests do not decide between this patch and ${plural(open.length, 'other plausible patch', 'other plausible patches')}${example}`,
    );
  }
  if (parts.length > 0) return `review ${parts.join('; and ')}`;
  if (assessment.notAssessed) return `the assessment could not look: ${clip(assessment.notAssessed, 200).replace(/\.$/, '')}`;
  // The analysis decides the level: whatever made it `review`, its reason says.
  return `review: ${clip(assessment.reason, 200).replace(/\.$/, '')}`;
}
