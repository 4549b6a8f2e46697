// The level a run's publication shows (docs/design.md §3.3), read the same way by every place that shows
// it (headline, report, exit code, pull request, check, the Action's outputs, the library).
import type { AssessmentLevel } from './assessment.ts';
import type { RunResult } from './run-result.ts';

/** `verified` or `review` for a green run that was assessed; null otherwise (not green, or no assessment ran). */
export function assessmentLevel(result: Pick<RunResult, 'status' | 'assessment'>): AssessmentLevel | null {
  return result.status === 'tests_green' ? (result.assessment?.level ?? null) : null;
}

/** A green run whose patch a person should look at before merging: a draft, a neutral check, exit 4. */
export function needsReview(result: Pick<RunResult, 'status' | 'assessment'>): boolean {
  return assessmentLevel(result) === 'review';
}
