// The step's outputs (action.yml), in one place so every way the step ends writes all of them: a
// later step reads `status` and `assessment` whatever happened, an empty value when there is none.
import { assessmentLevel } from '../../core/assessment-level.ts';
import type { RunResult } from '../../core/run-result.ts';

export interface StepOutputs {
  /** `tests_green`, … for a run; `no-run`, `ignored` or `error` when there was none. */
  status: string;
  'pull-request-url': string;
  'run-id': string;
  /** `verified` or `review` for a green run that was assessed (docs/design.md §3.3); empty otherwise. */
  assessment: string;
}

/** The outputs of a step that started no run, or could not start one. */
export function noRunOutputs(status: 'no-run' | 'ignored' | 'error'): StepOutputs {
  return { status, 'pull-request-url': '', 'run-id': '', assessment: '' };
}

/** The outputs of a run: its status (error when it left no result), pull request and level. */
export function runOutputs(runId: string, result: RunResult | null, pullRequestUrl: string): StepOutputs {
  return {
    status: result?.status ?? 'error',
    'pull-request-url': pullRequestUrl,
    'run-id': runId,
    assessment: result ? (assessmentLevel(result) ?? '') : '',
  };
}
