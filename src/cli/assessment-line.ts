// One line on a run's assessment (docs/design.md §3.3), for `fixloop runs show`: the level and why, before
// the report, so an operator reading a stored run sees at once whether a person must review the patch.
import type { RunResult } from '../core/run-result.ts';

export function assessmentLine(result: RunResult): string | null {
  if (result.status !== 'tests_green') return null;
  const assessment = result.assessment;
  if (!assessment) return result.replay ? 'Assessment: none (a replay)' : 'Assessment: none ran';
  const why = assessment.notAssessed ? `the assessment could not look: ${assessment.notAssessed}` : assessment.reason;
  return `Assessment: ${assessment.level}, ${why.split('\n')[0]}`;
}

/** `tests_green (review)`: the status with the level, where a table has room for one word more. */
export function statusWithLevel(result: RunResult): string {
  return result.status === 'tests_green' && result.assessment ? `${result.status} (${result.assessment.level})` : result.status;
}
