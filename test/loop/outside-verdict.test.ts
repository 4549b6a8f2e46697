import { describe, expect, it } from 'vitest';
import { withOutsideVerdict } from '../../src/loop/outside-verdict.ts';
import { headlineFor } from '../../src/loop/headline.ts';
import { renderMarkdownReport } from '../../src/report/render-markdown.ts';
import { assessedResult, runnerOnlyAssessment, verifiedAssessment } from '../support/sample-assessment.ts';

describe('the verdict of the look outside the runner', () => {
  it('refuses a green run whose patch gives its fixed result only under the runner, keeping the assessment', () => {
    const refused = withOutsideVerdict(assessedResult(runnerOnlyAssessment()));
    expect(refused.status).toBe('failed_to_green');
    expect(refused.stopReason).toBe('verification_failed');
    expect(refused.verification?.passed).toBe(false);
    expect(refused.verification?.findings).toEqual([
      {
        kind: 'runner_only',
        message:
          "the patch works only under the test runner, beside its tests: `isAbsolute('C:\\\\x')` (and 1 other call) gives true there, but false in a plain process without the tests, where the original gives false in both",
      },
    ]);
    expect(refused.assessment).toEqual(runnerOnlyAssessment());
    expect(headlineFor(refused)).toBe(
      `Not fixed after 1 attempt: the judge refused the patch: ${refused.verification?.findings[0]?.message}.`,
    );
  });

  it('shows the calls the refusal rests on in the report, and no level', () => {
    const refused = withOutsideVerdict(assessedResult(runnerOnlyAssessment()));
    const md = renderMarkdownReport({ ...refused, headline: headlineFor(refused) });
    expect(md).toContain('#### Fixed only under the test runner');
    expect(md).toContain("| `isAbsolute` (`src/path.ts:12`) | `isAbsolute('C:\\\\x')` | `false` | `true` | `false` |");
    expect(md).not.toContain('Review before merging');
    expect(md).not.toContain('Assessment: verified');
  });

  it('leaves a run alone when every call made outside gave there what it gives under the runner', () => {
    const green = assessedResult({
      ...verifiedAssessment(),
      outsideLook: { called: 2, reproduced: 2, runnerOnly: [], count: 0 },
    });
    expect(withOutsideVerdict(green)).toBe(green);
    const looked = assessedResult(verifiedAssessment());
    expect(withOutsideVerdict(looked)).toBe(looked);
  });

  it('leaves a run that is not green as the judge left it', () => {
    const red = { ...assessedResult(runnerOnlyAssessment()), status: 'failed_to_green' as const };
    expect(withOutsideVerdict(red)).toBe(red);
  });
});
