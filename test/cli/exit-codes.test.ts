// The exit code tells a verified fix (0) from one whose tests pass but that a person should review
// (4, docs/design.md §3.3); a green run without an assessment exits as it always did.
import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes.ts';
import { assessedResult, notAssessedAssessment, reviewAssessment, verifiedAssessment } from '../support/sample-assessment.ts';

describe('exitCodeFor a green run', () => {
  it('is 0 at level verified and without an assessment, 4 at level review', () => {
    expect(EXIT.review).toBe(4);
    expect(exitCodeFor(assessedResult(verifiedAssessment()))).toBe(0);
    expect(exitCodeFor(assessedResult(undefined))).toBe(0);
    expect(exitCodeFor(assessedResult(reviewAssessment()))).toBe(4);
    expect(exitCodeFor(assessedResult(notAssessedAssessment()))).toBe(4);
  });

  it('reads the level only for a green run', () => {
    const escalated = { ...assessedResult(reviewAssessment()), status: 'escalated' as const };
    expect(exitCodeFor(escalated)).toBe(EXIT.notFixed);
  });
});
