// The library's short outcome of a green run carries the assessment's level (docs/design.md §3.3), and the
// full result the assessment itself: a pipeline branches on `level` without reading the report.
import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../../src/library/run-outcome.ts';
import { assessedResult, reviewAssessment, verifiedAssessment } from '../support/sample-assessment.ts';

const stored = { diffs: ['/out/t-1.diff'], artifactsDir: '/out', warnings: [], lastOutput: '' };

describe('the library outcome of a green run', () => {
  it('has the level beside the patch, and the assessment in its result', () => {
    const review = outcomeOf(assessedResult(reviewAssessment()), stored);
    expect(review).toMatchObject({ status: 'tests_green', level: 'review' });
    expect(review.result.assessment).toEqual(reviewAssessment());
    expect(outcomeOf(assessedResult(verifiedAssessment()), stored)).toMatchObject({ status: 'tests_green', level: 'verified' });
  });

  it('has level null when no assessment ran', () => {
    expect(outcomeOf(assessedResult(undefined), stored)).toMatchObject({ status: 'tests_green', level: null });
  });
});
