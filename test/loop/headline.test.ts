import { describe, expect, it } from 'vitest';
import { headlineFor } from '../../src/loop/headline.ts';
import { greenResult } from '../support/sample-run-result.ts';
import {
  ambiguousAssessment,
  assessedResult,
  nearFailingOnlyAssessment,
  notAssessedAssessment,
  reviewAssessment,
  verifiedAssessment,
} from '../support/sample-assessment.ts';

describe('the headline of a replay (no engine ran)', () => {
  it('says the stored patch held again', () => {
    const result = { ...greenResult(), attempts: [], replay: true as const };
    expect(headlineFor(result)).toMatch(
      new RegExp(`^Verified again: run ${result.runId}'s stored patch passes on a pristine checkout`),
    );
    expect(headlineFor(result)).not.toMatch(/attempt/);
  });

  it('names why the stored patch did not hold: the first finding, else the tests it broke', () => {
    const base = {
      ...greenResult(),
      attempts: [],
      replay: true as const,
      status: 'failed_to_green' as const,
      stopReason: 'verification_failed' as const,
    };
    const verification = { ...base.verification!, passed: false, passToFail: ['t > a', 't > b'], findings: [] };
    expect(headlineFor({ ...base, verification })).toBe(
      `Not verified again: run ${base.runId}'s stored patch did not hold on a pristine checkout: 2 tests that passed before now failing.`,
    );
    const finding = { kind: 'runner_changed' as const, path: 'package.json', message: '`package.json`: its scripts changed' };
    expect(headlineFor({ ...base, verification: { ...verification, findings: [finding] } })).toMatch(
      /did not hold on a pristine checkout: `package\.json`: its scripts changed\.$/,
    );
  });

  it("leaves a fix run's headline as it was", () => {
    expect(headlineFor(greenResult())).toMatch(/^Verified fix after \d+ attempts?/);
  });
});

describe('the headline of a green run and its assessment (docs/design.md §3.3)', () => {
  it('stays "Verified fix" at level verified, and without an assessment', () => {
    expect(headlineFor(assessedResult(verifiedAssessment()))).toBe(headlineFor(greenResult()));
    expect(headlineFor(greenResult())).toBe(
      'Verified fix after 1 attempt: 1 failing test now passes; replayed on a pristine checkout, 5/5 passing, no test weakened.',
    );
  });

  it('says the tests pass and names the changes to review, with their values before and after', () => {
    expect(headlineFor(assessedResult(reviewAssessment()))).toBe(
      "Tests pass after 1 attempt (1 failing test now passes; replayed on a pristine checkout, 5/5 passing); review 2 behaviour changes outside the failing tests: `isAbsolute('ab\\\\c')`: false → true, `isAbsolute('a|b')`: false → throws TypeError: x is not a function.",
    );
  });

  it('counts the changes beyond those it names', () => {
    const assessment = { ...reviewAssessment(), counts: { suiteCalls: 412, generatedInputs: 1630, changes: 8, nearFailing: 1 } };
    expect(headlineFor(assessedResult(assessment))).toMatch(
      /review 7 behaviour changes outside the failing tests: `isAbsolute\('ab\\\\c'\)`: false → true, `isAbsolute\('a\|b'\)`: [^,]+, and 5 more\.$/,
    );
  });

  it('names the ambiguity when another plausible patch disagrees', () => {
    expect(headlineFor(assessedResult(ambiguousAssessment()))).toBe(
      'Tests pass after 1 attempt (1 failing test now passes; replayed on a pristine checkout, 5/5 passing); review an ambiguity: the tests do not decide between this patch and 1 other plausible patch (`discountRate(100.5)`: 0.05 here, 0 with the other).',
    );
  });

  it('says why the assessment could not look', () => {
    expect(headlineFor(assessedResult(notAssessedAssessment()))).toBe(
      'Tests pass after 1 attempt (1 failing test now passes; replayed on a pristine checkout, 5/5 passing); the assessment could not look: no changed function it can probe (the patch changes a module-level constant).',
    );
  });

  it("gives the analysis's reason when only changes near the failing tests made it review", () => {
    expect(headlineFor(assessedResult(nearFailingOnlyAssessment()))).toMatch(
      /^Tests pass after 1 attempt \(.*\); review: the failing tests' own function changed on 2 inputs the suite does not check\.$/,
    );
  });

  it('keeps the exit-code caveat at level review', () => {
    const result = assessedResult(reviewAssessment());
    result.verification!.evidence = 'exit-code';
    expect(headlineFor(result)).toMatch(
      /^Tests pass by exit code only after 1 attempt \(test\.evidence: exit-code\); review 2 behaviour changes/,
    );
  });
});

describe('the headline of a run whose last patch the judge refused', () => {
  it('says the tests passed and why the judge refused it, not "0 tests still failing"', () => {
    const base = greenResult();
    const finding = {
      kind: 'second_observation_failed' as const,
      message: '`t > a` passes in the whole suite but not when run alone (`npm test -- --grep a`)',
    };
    const result = {
      ...base,
      status: 'failed_to_green' as const,
      stopReason: 'max_attempts' as const,
      verification: { ...base.verification!, passed: false, findings: [finding] },
    };
    expect(headlineFor(result)).toBe(
      'Not fixed after 1 attempt: all attempts used; the last patch passed the tests, and the judge refused it: `t > a` passes in the whole suite but not when run alone (`npm test -- --grep a`).',
    );
    const failing = { ...result, final: { ...result.final!, failed: 1 } };
    expect(headlineFor(failing)).toMatch(/; 1 test still failing\.$/);
  });
});
