// The step's `assessment` output (action.yml): `verified` or `review` for an assessed green run, empty
// for every other ending, so a later step can tell a fix to merge from one to review.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeOutputs } from '../../src/cli/action/step-files.ts';
import { noRunOutputs, runOutputs } from '../../src/cli/action/step-outputs.ts';
import { parseOutputs } from '../support/action-harness.ts';
import { assessedResult, notAssessedAssessment, reviewAssessment, verifiedAssessment } from '../support/sample-assessment.ts';

const URL = 'https://github.com/octo/shop/pull/7';

describe('the step outputs', () => {
  it('say the level of an assessed green run', () => {
    expect(runOutputs('r1', assessedResult(verifiedAssessment()), URL)).toEqual({
      status: 'tests_green',
      'pull-request-url': URL,
      'run-id': 'r1',
      assessment: 'verified',
    });
    expect(runOutputs('r1', assessedResult(reviewAssessment()), URL).assessment).toBe('review');
    expect(runOutputs('r1', assessedResult(notAssessedAssessment()), URL).assessment).toBe('review');
  });

  it('leave it empty when no assessment ran, the run is not green, or there was no run', () => {
    expect(runOutputs('r1', assessedResult(undefined), URL).assessment).toBe('');
    expect(runOutputs('r1', { ...assessedResult(reviewAssessment()), status: 'escalated' }, '').assessment).toBe('');
    expect(runOutputs('r1', null, '')).toEqual({ status: 'error', 'pull-request-url': '', 'run-id': 'r1', assessment: '' });
    expect(noRunOutputs('ignored')).toEqual({ status: 'ignored', 'pull-request-url': '', 'run-id': '', assessment: '' });
  });

  it('are written to GITHUB_OUTPUT, the assessment among them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fixloop-outputs-'));
    try {
      const path = join(dir, 'output');
      await writeOutputs(path, { ...runOutputs('r1', assessedResult(reviewAssessment()), URL) });
      expect(parseOutputs(await readFile(path, 'utf8'))).toEqual({
        status: 'tests_green',
        'pull-request-url': URL,
        'run-id': 'r1',
        assessment: 'review',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
