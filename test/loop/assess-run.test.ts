// The assessment of a green run whose judged baseline named no test (docs/design.md §3.2.1): which tests
// failed is unknown, so it does not look (every change would count as outside the failing tests), and
// the level says why, in words, whether the assessment is on or off.
import { describe, expect, it } from 'vitest';
import { defaultRepoConfig } from '../../src/core/repo-config.ts';
import type { TestView } from '../../src/core/test-report.ts';
import type { RunResult } from '../../src/core/run-result.ts';
import { assessRun } from '../../src/loop/assess-run.ts';
import type { PreparedRun } from '../../src/loop/prepare-run.ts';
import type { RunContext } from '../../src/loop/run-context.ts';
import { greenResult } from '../support/sample-run-result.ts';

/** What assessRun reads of a run before it looks: the configuration, and where it notes its verdict. */
function fakes(enabled: boolean) {
  const notes: string[] = [];
  const config = defaultRepoConfig();
  config.assessment.enabled = enabled;
  const ctx = { note: (kind: string, message: string) => notes.push(`${kind}: ${message}`) } as unknown as RunContext;
  return { ctx, run: { config } as unknown as PreparedRun, notes };
}

function judged(baselineView: TestView): RunResult {
  const result = greenResult();
  result.verification = { ...result.verification!, failToPass: [], baselineView };
  return result;
}

describe('the assessment where which tests failed is unknown', () => {
  it('does not look, and says why, when the baseline’s tests were counted and not named', async () => {
    const { ctx, run, notes } = fakes(true);
    const assessed = await assessRun(ctx, run, judged('counts'));
    expect(assessed.assessment).toMatchObject({
      level: 'review',
      notAssessed: expect.stringMatching(/^which tests failed is unknown \(the baseline's tests were counted but not named/),
      reason: expect.stringMatching(/^the assessment could not look: which tests failed is unknown/),
    });
    expect(notes).toEqual([`assess: review: ${assessed.assessment?.reason ?? ''}`]);
  });

  it('says so beside `assessment.enabled: false`, where a run with no assessment would stand on the judge alone', async () => {
    const { ctx, run } = fakes(false);
    expect((await assessRun(ctx, run, judged('none'))).assessment).toMatchObject({
      level: 'review',
      reason: expect.stringMatching(
        /^which tests failed is unknown \(the baseline's output could not be read per test\).*; the assessment could not look: `assessment.enabled: false`$/,
      ),
    });
    // A baseline that named its tests leaves a run without an assessment as it was.
    expect((await assessRun(ctx, run, judged('inside'))).assessment).toBeUndefined();
  });
});
